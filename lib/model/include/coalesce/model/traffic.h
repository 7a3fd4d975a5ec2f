// The seeds' step 2: useful bytes against the bytes actually moved.
#pragma once

#include <cstdint>

#include "coalesce/model/access_model.h"

namespace coalesce::model {

struct Traffic {
  double usefulBytes = 0;       // Q_useful
  double transferredBytes = 0;  // Q_real = Q_useful / eta
  double ratio() const { return usefulBytes > 0 ? transferredBytes / usefulBytes : 1.0; }
};

// Traffic of a global access executed `warpRequests` times (warp-level executions).
Traffic globalTraffic(const GlobalFigures& f, double warpRequests, const Arch& arch);

}  // namespace coalesce::model
