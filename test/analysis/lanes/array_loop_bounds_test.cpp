// arrayLoopBounds (array_loop_bounds.h): a runtime scalar that bounds a loop whose counter
// indexes an array of known size is at most what keeps the index inside the array; an index the
// loop's counter does not step alone, an array of unknown size, or a guard that reads the
// counter bound nothing.
#include <catch2/catch.hpp>

#include "array_loop_bounds.h"

using namespace coalesce;
using namespace coalesce::analysis;

namespace {

struct Loop {
  SymbolTable symbols;
  int k = -1, i = -1;
  // for (int i = start; i < k (or <=); i += step), counted from 0 by the counter `i`
  Loop(int64_t start, int64_t step, bool strict) {
    SymbolInfo p;
    p.name = "k";
    p.kind = SymbolInfo::Kind::Param;
    k = symbols.add(p);
    SymbolInfo c;
    c.name = "iteration";
    c.kind = SymbolInfo::Kind::LoopVar;
    c.loopText = "for (int i = 0; i < k; i++)";
    i = symbols.add(c);
    const ExprRef value = binary(Op::Add, constant(start), binary(Op::Mul, symbol(i), constant(step)));
    symbols[i].loopCond = binary(strict ? Op::Lt : Op::Le, value, symbol(k));
  }
  // cache[start + step * counter + extra] of `floats` floats, under the loop's condition.
  RawAccess access(int64_t start, int64_t step, int64_t floats, int64_t extra = 0) const {
    RawAccess r;
    r.space = model::Space::Local;
    r.bytes = 4;
    r.rootName = "cache";
    r.rootBytes = floats * 4;
    r.offset = binary(Op::Mul, binary(Op::Add, binary(Op::Add, constant(start), binary(Op::Mul, symbol(i), constant(step))),
                                      constant(extra)),
                      constant(4));
    r.guards = {symbols[i].loopCond};
    return r;
  }
};

}  // namespace

TEST_CASE("array loop bounds: a loop that indexes a private array caps its bound") {
  Loop loop(0, 1, true);
  const RawAccess a = loop.access(0, 1, 2048);
  const auto bounds = arrayLoopBounds({&a}, loop.symbols);
  REQUIRE(bounds.count(loop.k));
  CHECK(bounds.at(loop.k).most == 2048);  // i < k reaches i = k - 1 = 2047, the last element
  CHECK(bounds.at(loop.k).because.find("past its 2048 elements") != std::string::npos);
}

TEST_CASE("array loop bounds: `<=`, a start, a step and an offset move the cap as the last index does") {
  Loop le(0, 1, false);
  const RawAccess a = le.access(0, 1, 2048);
  CHECK(arrayLoopBounds({&a}, le.symbols).at(le.k).most == 2047);  // i <= k reaches i = k
  Loop stepped(2, 2, true);
  const RawAccess b = stepped.access(2, 2, 100, 1);  // cache[i + 1], i = 2, 4, ...: the last index 99
  // i + 1 <= 99 holds up to the counter (99 - 3) / 2 = 48, i = 98, and i < k stops there at k <= 100.
  CHECK(arrayLoopBounds({&b}, stepped.symbols).at(stepped.k).most == 100);
}

TEST_CASE("array loop bounds: no cap without a known size, a lone counter term or every iteration") {
  Loop loop(0, 1, true);
  RawAccess unknownSize = loop.access(0, 1, 2048);
  unknownSize.rootBytes = 0;
  RawAccess other = loop.access(0, 1, 2048);
  other.offset = binary(Op::Add, other.offset, binary(Op::Mul, leaf(Op::ThreadIdx, 0), constant(4)));
  RawAccess guarded = loop.access(0, 1, 2048);
  guarded.guards.push_back(binary(Op::Lt, symbol(loop.i), constant(16)));  // if (i < 16) cache[i] = ...
  CHECK(arrayLoopBounds({&unknownSize, &other, &guarded}, loop.symbols).empty());
}
