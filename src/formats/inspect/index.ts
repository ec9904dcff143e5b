export {
  type EnvelopeFinding,
  type FrameFinding,
  type InspectReport,
  inspectText,
  type NeutralisedTagFinding,
  type ReadTagFinding,
  type TagFinding,
  type TextPosition,
} from "./inspect-text.ts";
