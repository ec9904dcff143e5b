export {
  type EnvelopeFinding,
  type FrameFinding,
  type InspectReport,
  inspectText,
  type NeutralisedTagFinding,
  type TagFinding,
  type TextPosition,
} from "./inspect-text.ts";
