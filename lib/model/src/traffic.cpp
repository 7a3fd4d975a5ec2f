#include "coalesce/model/traffic.h"

namespace coalesce::model {

Traffic globalTraffic(const GlobalFigures& f, double warpRequests, const Arch& arch) {
  // Q_useful is what a perfectly coalesced warp would move; Q_real = Q_useful / eta is
  // then exactly the sectors the hardware moves.
  Traffic t;
  t.usefulBytes = f.idealSectors * arch.sectorBytes * warpRequests;
  t.transferredBytes = f.sectorsPerRequest * arch.sectorBytes * warpRequests;
  return t;
}

}  // namespace coalesce::model
