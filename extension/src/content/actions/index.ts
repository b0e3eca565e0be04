// Each action file registers itself with the content script's action registry.
import "./click.ts";
import "./dblclick.ts";
import "./fill.ts";
import "./type.ts";
import "./press.ts";
import "./hover.ts";
import "./focus.ts";
import "./check.ts";
import "./select.ts";
import "./scroll.ts";
import "./submit.ts";
import "./wait-for.ts";
import "./extract.ts";
import "./get.ts";
import "./is.ts";
import "./query.ts";
import "./details.ts";
