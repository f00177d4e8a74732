// A table that becomes a list of small cards on a phone (below Tailwind's `sm`, 640 px): each row
// a card, the row header its title, then one line per cell with its column's name on the left
// (the cell's `data-label`) and the value on the right. Nothing is cut and nothing scrolls
// sideways, so no scrolling box needs the keyboard. The table keeps its roles (Chromium, Firefox
// and Safari keep a <table>'s semantics under display: block), and the column headers stay for
// screen readers (visually hidden, inside a positioned box so they cannot widen the page).
//
// Put STACKED_BOX on the box around the table, STACKED_TABLE on the <table>, STACKED_HEAD on the
// <thead>, and a `data-label` on every <td>.

/** The box around the table: scrolls sideways above `sm` if it must; positioned, so a visually hidden header stays inside. */
export const STACKED_BOX = "relative overflow-x-auto max-sm:overflow-visible";

export const STACKED_TABLE = [
  "max-sm:block",
  "max-sm:[&>tbody]:block",
  "max-sm:[&>tbody>tr]:block max-sm:[&>tbody>tr]:py-2",
  // The row header: the card's title.
  "max-sm:[&>tbody>tr>th]:block max-sm:[&>tbody>tr>th]:pb-1 max-sm:[&>tbody>tr>th]:text-left",
  // Each cell: its column's name floated left, its value (however many lines) on the right.
  "max-sm:[&>tbody>tr>td]:flow-root max-sm:[&>tbody>tr>td]:py-1 max-sm:[&>tbody>tr>td]:text-right max-sm:[&>tbody>tr>td]:whitespace-normal",
  "max-sm:[&>tbody>tr>td]:before:float-left max-sm:[&>tbody>tr>td]:before:mr-3 max-sm:[&>tbody>tr>td]:before:text-left max-sm:[&>tbody>tr>td]:before:text-xs",
  "max-sm:[&>tbody>tr>td]:before:font-medium max-sm:[&>tbody>tr>td]:before:text-slate-600 max-sm:[&>tbody>tr>td]:before:uppercase",
  "max-sm:[&>tbody>tr>td]:before:content-[attr(data-label)]",
  "max-sm:[&>tfoot]:block max-sm:[&>tfoot>tr]:flex max-sm:[&>tfoot>tr]:flex-wrap max-sm:[&>tfoot>tr]:gap-x-3",
].join(" ");

/** The header row: visually hidden on a phone, where each cell says its column. */
export const STACKED_HEAD = "max-sm:sr-only";
