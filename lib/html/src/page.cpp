#include "coalesce/html/page.h"

#include <fmt/format.h>

#include "coalesce/html/escape.h"
#include "page_assets.h"

namespace coalesce::html {

std::string page(std::string_view title, std::string_view body) {
  std::string out;
  out.reserve(body.size() + detail::kStyle.size() + detail::kScript.size() + 512);
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  // Nothing to fetch: no network, and a page saved from CI opens anywhere.
  out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "script-src 'unsafe-inline'; img-src data:\">\n";
  out += "<title>";
  appendEscaped(out, title);
  out += "</title>\n<style>";
  out += detail::kStyle;
  out += "</style>\n</head>\n<body>\n";
  out += body;
  out += "\n<script>";
  out += detail::kScript;
  out += "</script>\n</body>\n</html>\n";
  return out;
}

Waste wasteOf(double factor) {
  if (!(factor == factor)) return Waste::Unknown;  // NaN
  if (factor <= 1.001) return Waste::Ideal;
  if (factor <= 4.0 / 3.0 + 1e-9) return Waste::Mild;
  if (factor <= 2.5 + 1e-9) return Waste::High;
  return Waste::Severe;
}

std::string_view cssClass(Waste w) {
  switch (w) {
    case Waste::Ideal: return "w0";
    case Waste::Mild: return "w1";
    case Waste::High: return "w2";
    case Waste::Severe: return "w3";
    case Waste::Unknown: return "wu";
  }
  return "wu";
}

std::string_view describe(Waste w) {
  switch (w) {
    case Waste::Ideal: return "ideal (eta 100%, no conflict)";
    case Waste::Mild: return "up to 1.33x the ideal (eta 75% or more)";
    case Waste::High: return "up to 2.5x (eta 40% or more, a 2-way conflict)";
    case Waste::Severe: return "more than 2.5x (eta below 40%, 3-way conflicts or worse)";
    case Waste::Unknown: return "depends on loaded data (a range)";
  }
  return "";
}

std::string legend() {
  std::string out = "<section id=\"legend\"><h2>Legend</h2>\n<p>Accesses are coloured by how much more memory "
                    "work they do than they need: sectors / ideal sectors (1 / eta) for global memory, the "
                    "bank-conflict degree for shared memory. Every badge also gives its figure.</p>\n"
                    "<div class=\"legend\">";
  for (Waste w : {Waste::Ideal, Waste::Mild, Waste::High, Waste::Severe, Waste::Unknown})
    out += fmt::format("<span><span class=\"sw {}\"></span>{}</span>", cssClass(w), describe(w));
  out += "</div>\n<p>Warp pictures:</p><div class=\"legend\">"
         "<span><span class=\"sw\" style=\"background:#56B4E9\"></span>a lane that runs the access</span>"
         "<span><span class=\"sw\" style=\"background:#e6e6e6\"></span>a lane that does not (predicated off)</span>"
         "<span><span class=\"sw\" style=\"background:#0072B2\"></span>bytes a lane uses / a bank's word served in "
         "the first wavefront</span>"
         "<span><span class=\"sw\" style=\"background:#E69F00\"></span>bytes moved for nothing</span>"
         "<span><span class=\"sw\" style=\"background:#D55E00\"></span>a word that needs another wavefront (a "
         "bank conflict)</span></div>\n</section>\n";
  return out;
}

std::string sortableHeader(std::string_view label, bool numeric) {
  std::string out = numeric ? "<th data-type=\"num\">" : "<th>";
  out += "<button type=\"button\">";
  appendEscaped(out, label);
  out += "</button></th>";
  return out;
}

}  // namespace coalesce::html
