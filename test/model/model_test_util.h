// Small builders so each test reads like the seed's table row it checks.
#pragma once

#include "coalesce/model/access_model.h"

namespace coalesce::test {

using namespace coalesce::model;

// A 1D access a[stride*tx + offset] of `bytes`-byte elements from an aligned base.
inline Access strided(Space space, int64_t strideElems, int bytes, int64_t offsetElems = 0) {
  Access a;
  a.space = space;
  a.bytesPerLane = bytes;
  a.pattern = LanePattern::makeAffine({strideElems * bytes, 0, 0}, {offsetElems * bytes, 0});
  return a;
}

inline GlobalFigures globalOf(const Access& a, Dim3 block = {256, 1, 1}) {
  return analyzeAccess(a, block, defaultArch()).global->aligned;
}

inline SharedFigures sharedOf(const Access& a, Dim3 block = {256, 1, 1}) {
  return analyzeAccess(a, block, defaultArch()).shared->aligned;
}

}  // namespace coalesce::test
