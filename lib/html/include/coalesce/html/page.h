// The shell of every page the project writes: one self-contained HTML document (inline
// style and script, no network, no external font), readable without JavaScript: tables are
// plain tables in a useful order, details are <details> elements; the script only sorts
// tables on a click on their headers and opens the <details> that a #fragment points into.
#pragma once

#include <string>
#include <string_view>

namespace coalesce::html {

// The whole document. `title` is escaped here; `body` is HTML the caller built (and escaped).
std::string page(std::string_view title, std::string_view body);

// How much more memory work an access does than it needs, as the colour classes of the pages
// (CSS classes w0..w3, wu): sectors / ideal sectors (1 / eta) for global memory, the
// conflict degree (wavefronts / ideal) for shared memory; one scale for both so that a 2-way
// conflict and eta = 50% look alike. The palette is Okabe and Ito's, safe for the common
// colour-vision deficiencies, and every coloured badge also says its figure in text.
enum class Waste { Ideal, Mild, High, Severe, Unknown };
Waste wasteOf(double factor);  // factor <= 1.001: Ideal; <= 4/3: Mild; <= 2.5: High; else Severe
std::string_view cssClass(Waste w);
std::string_view describe(Waste w);  // "ideal", "up to 1.33x", ...

// The legend of the scale (and of the warp pictures' colours), as a <section>.
std::string legend();

// A sortable table's header cell: a button the script binds; `numeric` sorts by number,
// largest first on the first click; without JavaScript it is a plain header.
std::string sortableHeader(std::string_view label, bool numeric);

}  // namespace coalesce::html
