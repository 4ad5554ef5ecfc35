export { renderAxis, type AxisOptions, type Orient } from "./axis";
export { Chart, type ChartOptions } from "./chart";
export { formatNumber, formatPercent, tickFormatter } from "./format";
export { renderLegend, type LegendItem } from "./legend";
export { bandScale, extent, linearScale, niceTicks } from "./scale";
export { linePath, renderBars, renderLine, type Series } from "./series";
export { Tooltip, nearestIndex } from "./tooltip";
