// The style sheet and the script every page inlines. Colours: Okabe and Ito's palette
// (blue #0072B2, sky #56B4E9, orange #E69F00, vermillion #D55E00, purple #CC79A7), which
// stays distinct under the common colour-vision deficiencies; every colour also comes with
// a figure or a word in text. Short class names keep a page of thousands of findings small
// (docs/html-report.md lists them).
#include "page_assets.h"

namespace coalesce::html::detail {

const std::string_view kStyle = R"css(
:root{--blue:#0072B2;--sky:#56B4E9;--orange:#E69F00;--red:#D55E00;--purple:#CC79A7;--grey:#767676;
--line:#d0d0d0;--bg:#ffffff;--soft:#f4f4f4;color-scheme:light}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:0;color:#1a1a1a;background:var(--bg)}
header{background:#1d2733;color:#fff;padding:14px 24px}
header h1{font-size:20px;margin:0 0 4px}
header p{margin:0;color:#d8dee6}
nav{padding:8px 24px;background:var(--soft);border-bottom:1px solid var(--line)}
nav a{margin-right:16px}
main{padding:8px 24px 48px}
h2{font-size:18px;margin:24px 0 8px;border-bottom:2px solid var(--line);padding-bottom:2px}
h3{font-size:15px;margin:20px 0 6px;word-break:break-all}
a{color:#00558a}
code,pre,.c,.mono{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12.5px}
table{border-collapse:collapse}
table.t{width:100%;margin:6px 0 12px}
table.t th,table.t td{border:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
table.t th{background:var(--soft)}
table.t td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.t th{white-space:nowrap}
th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;color:inherit}
th button::after{content:" \21C5";color:var(--grey)}
th[aria-sort=ascending] button::after{content:" \25B2"}
th[aria-sort=descending] button::after{content:" \25BC"}
div.cols{display:flex;flex-wrap:wrap;gap:8px 48px;align-items:flex-start}
td.nw{white-space:nowrap}
dl.sum{display:grid;grid-template-columns:max-content auto;gap:2px 16px;margin:8px 0}
dl.sum dt{font-weight:600}
dl.sum dd{margin:0}
.b{display:inline-block;border-radius:3px;padding:0 5px;margin:0 3px 1px 0;font-size:12px;white-space:nowrap;border:1px solid rgba(0,0,0,.25)}
.w0{background:var(--blue);color:#fff}
.w1{background:var(--sky);color:#000}
.w2{background:var(--orange);color:#000}
.w3{background:var(--red);color:#fff}
.wu{background:var(--purple);color:#000}
.wn{background:#fff;color:#000;border-style:dashed}
.sev{font-weight:700;text-transform:uppercase;font-size:11px;letter-spacing:.03em}
.sev.error{color:var(--red)}.sev.warning{color:#9a5b00}.sev.note{color:var(--grey)}
table.src{width:100%;border:1px solid var(--line);margin:4px 0 16px}
table.src td{padding:0 6px;vertical-align:top}
table.src td.n{color:var(--grey);text-align:right;user-select:none;width:1%;white-space:nowrap;border-right:1px solid var(--line)}
table.src td.a{width:1%;white-space:normal}
table.src td.c{white-space:pre-wrap;word-break:break-all;width:98%}
table.src tr.hit td.c{background:#fff6e0}
table.src tr.gap td{background:var(--soft);color:var(--grey);font-style:italic}
table.src tr.fnd>td{padding:6px 10px 10px 40px;background:#fbfbfb}
div.f{border-left:4px solid var(--orange);padding:4px 10px;background:#fff;max-width:1100px}
div.f.error{border-left-color:var(--red)}div.f.note{border-left-color:var(--grey)}
div.f p{margin:2px 0}
div.f ul{margin:4px 0;padding-left:20px}
div.f li.fix{font-weight:600}
div.pics{display:flex;flex-wrap:wrap;gap:16px;margin-top:6px}
figure{margin:0;border:1px solid var(--line);padding:6px;background:#fff}
figcaption{font-size:12px;max-width:660px;margin-bottom:4px}
figcaption b{font-size:13px}
svg.w{display:block;max-width:100%;height:auto}
/* The pictures' drawings are <symbol>s shown through <use> (lib/html/include/coalesce/html/warp_svg.h):
   a selector must not name an ancestor outside the drawing, which the <use>'s copy lacks. */
.la{fill:var(--sky)}.li{fill:#e6e6e6;stroke:#999;stroke-width:.5}
.lu{fill:var(--blue)}.lw{fill:var(--orange)}
.ln{stroke:#444;stroke-width:.6;fill:none;opacity:.7}
.sf{fill:none;stroke:#333;stroke-width:.8}
.b1{fill:var(--blue)}.bx{fill:var(--red)}.bg{fill:#f1f1f1}
.lo{fill:#fafafa;stroke:#bbb;stroke-width:.5}
.c0{fill:var(--blue)}.c1{fill:var(--orange)}.c2{fill:var(--sky)}.c3{fill:var(--red)}.c4{fill:var(--purple)}
.c5{fill:#009E73}
text{font:10px "DejaVu Sans",sans-serif;fill:#222}
.m text{text-anchor:middle}
.i text{fill:#fff;font-size:9px;text-anchor:middle}
svg.sym{position:absolute;width:0;height:0;overflow:hidden}
.v-mismatch,.v-contradicted{background:#fde6dc}
tr.dis>td{background:#fde6dc}
.mark{font-weight:700;color:var(--red)}
.muted{color:var(--grey)}
.legend{display:flex;flex-wrap:wrap;gap:6px 18px;align-items:center}
.sw{display:inline-block;width:14px;height:14px;vertical-align:-2px;margin-right:4px;border:1px solid rgba(0,0,0,.3)}
button.tg{font:inherit;margin:0 6px 6px 0}
@media print{nav,button.tg{display:none}}
)css";

// Sorting: a click on a header's button sorts the table's body by that column (numbers
// largest first, text A to Z; a second click reverses), by each cell's data-v attribute
// when it has one, else its text. A #fragment inside closed <details> opens them.
const std::string_view kScript = R"js(
(function () {
  "use strict";
  function valueOf(row, i, numeric) {
    var cell = row.cells[i];
    if (!cell) return numeric ? -Infinity : "";
    var v = cell.getAttribute("data-v");
    if (v === null) v = cell.textContent;
    if (!numeric) return v.toLowerCase();
    var n = parseFloat(v);
    return isNaN(n) ? -Infinity : n;
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    var heads = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(heads, function (th, i) {
      var button = th.querySelector("button");
      if (!button) return;
      button.addEventListener("click", function () {
        var numeric = th.getAttribute("data-type") === "num";
        var first = numeric ? "descending" : "ascending";
        var state = th.getAttribute("aria-sort");
        var order = state === first ? (first === "ascending" ? "descending" : "ascending") : first;
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", order);
        var sign = order === "ascending" ? 1 : -1;
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = valueOf(a, i, numeric), y = valueOf(b, i, numeric);
          return x < y ? -sign : x > y ? sign : 0;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  function reveal() {
    var id = location.hash.slice(1);
    if (!id) return;
    var target = document.getElementById(id);
    if (!target) return;
    for (var p = target; p; p = p.parentElement) if (p.tagName === "DETAILS") p.open = true;
    target.scrollIntoView();
  }
  window.addEventListener("hashchange", reveal);
  reveal();
  Array.prototype.forEach.call(document.querySelectorAll("button[data-open]"), function (b) {
    b.hidden = false;
    b.addEventListener("click", function () {
      var open = b.getAttribute("data-open") === "1";
      Array.prototype.forEach.call(document.querySelectorAll("details.pic"), function (d) { d.open = open; });
    });
  });
})();
)js";

}  // namespace coalesce::html::detail
