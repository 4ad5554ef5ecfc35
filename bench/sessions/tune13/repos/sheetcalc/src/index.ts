export { Sheet } from "./sheet.js";
export { parseFormula, Parser, ParseError, type Node } from "./parser.js";
export { tokenize, TokenizeError, type Token } from "./tokenizer.js";
export { CellError, evaluate, type Value } from "./evaluator.js";
export { formatNumber, formatValue } from "./format.js";
export { parseRef, parseRange, cellsInRange, refKey } from "./refs.js";
