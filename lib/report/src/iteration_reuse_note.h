// Global accesses whose unused sector bytes are the same thread's next iterations' data (a
// thread walking its own row element by element). The caches serve those bytes, so the DRAM
// traffic is near the ideal, yet every request still moves the instruction's sectors through
// L1 (loads) or L2 (stores): measured on the H200 (bench/cache_reuse/h200), a 256-byte row
// walked per thread takes 2.9x to 4.0x the time of the same bytes read coalesced at 8 to 64
// warps per SM with 87 % L1 hits, and 12x to 15x as stores. The finding keeps its level and
// gains a note that says so (docs/findings.md, "Levels"). A short row (lanes at most 32 bytes
// apart for loads, 16 for stores) costs nothing measurable: that finding is a note. So is a load
// whose lanes are as close in runs of any width (a narrow block's rows) when the next iterations
// read the words each request skips: stride-2 lanes over 2 to 8 taps took 0.99x to 1.02x the
// time of the same words read coalesced (bench/cache_reuse/h200/filled_gaps.csv).
#pragma once

#include <vector>

#include "coalesce/model/arch.h"
#include "coalesce/records/records.h"
#include "coalesce/report/finding.h"

namespace coalesce::report::detail {

void addIterationReuseNotes(std::vector<Finding>& findings, const AnalysisResult& analysis, const model::Arch& arch);

}  // namespace coalesce::report::detail
