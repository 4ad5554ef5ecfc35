// Responsive charts: re-render when the container changes size.

export interface Size {
  width: number;
  height: number;
}

export type Unobserve = () => void;

export function observeResize(container: HTMLElement, onResize: (size: Size) => void): Unobserve {
  let last: Size = { width: -1, height: -1 };
  const observer = new ResizeObserver((entries) => {
    const box = entries[entries.length - 1].contentRect;
    const size = { width: Math.round(box.width), height: Math.round(box.height) };
    if (size.width === last.width && size.height === last.height) return;
    last = size;
    onResize(size);
  });
  observer.observe(container);
  return () => observer.disconnect();
}

export function aspectHeight(width: number, ratio = 16 / 9, min = 120): number {
  return Math.max(min, Math.round(width / ratio));
}

// Sets the SVG's viewBox to the container's size so 1 user unit = 1 CSS pixel.
export function fitSvg(svg: SVGSVGElement, size: Size): void {
  svg.setAttribute("width", String(size.width));
  svg.setAttribute("height", String(size.height));
  svg.setAttribute("viewBox", `0 0 ${size.width} ${size.height}`);
}

export function innerSize(size: Size, margin: { top: number; right: number; bottom: number; left: number }): Size {
  return {
    width: Math.max(0, size.width - margin.left - margin.right),
    height: Math.max(0, size.height - margin.top - margin.bottom),
  };
}
