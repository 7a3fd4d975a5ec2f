// The figures of an access over the launches a run made (--launch-info): each recorded
// configuration gives its own figures; the run's counters add up every launch's requests, so
// what they measure per request is the mix of those figures, weighted by each configuration's
// requests (per launch, times its launches). buildKernelRecords (record_builder.cpp) keeps
// this mix for a kernel whose contexts are all recorded launches, and the worst otherwise.
#pragma once

#include <vector>

#include "coalesce/model/access_model.h"

namespace coalesce::analysis {

struct WeightedFigures {
  model::AccessFigures figures;
  double weight = 0;  // requests of the configuration over the run (0: it does not run the access)
};

// The request-weighted mean of `all` (sectors or wavefronts per request, their ideal, the
// efficiency or conflict degree as ratios of the sums), per alignment case; the extremes
// (min/max sectors, max wavefronts) over all. `all` non-empty; with no weight at all, the
// first one's figures.
model::AccessFigures mixedFigures(const std::vector<WeightedFigures>& all);

}  // namespace coalesce::analysis
