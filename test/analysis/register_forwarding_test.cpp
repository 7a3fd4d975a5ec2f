// What nvcc keeps in registers (lib/analysis/src/register_forwarding.h): which stores may
// change which memory, values carried through a loop, and stores overwritten unread.
#include <catch2/catch.hpp>

#include "register_forwarding.h"

using namespace coalesce::analysis;
using coalesce::model::Space;

namespace {

RootRef rootOf(Space space, const clang::VarDecl* var, const char* name) {
  auto r = std::make_shared<Root>();
  r->space = space;
  r->var = var;
  r->name = name;
  return r;
}
// Distinct addresses stand for distinct variables: only their identity is compared.
const auto* kShared = reinterpret_cast<const clang::VarDecl*>(0x10);
const auto* kOtherShared = reinterpret_cast<const clang::VarDecl*>(0x20);
const auto* kLocal = reinterpret_cast<const clang::VarDecl*>(0x30);

}  // namespace

TEST_CASE("stores through a pointer may reach any memory but a local array, and variables never overlap") {
  const RootRef in = rootOf(Space::Global, nullptr, "in"), out = rootOf(Space::Global, nullptr, "out");
  const RootRef tile = rootOf(Space::Shared, kShared, "tile"), other = rootOf(Space::Shared, kOtherShared, "other");
  const RootRef local = rootOf(Space::Local, kLocal, "chain"), table = rootOf(Space::Constant, nullptr, "table");
  CHECK(mayAlias(*out, *in));
  CHECK(mayAlias(*out, *tile));  // a kernel's pointers are generic where nvcc optimises
  CHECK(mayAlias(*tile, *in));
  CHECK_FALSE(mayAlias(*tile, *other));
  CHECK_FALSE(mayAlias(*out, *local));
  CHECK_FALSE(mayAlias(*local, *in));
  CHECK_FALSE(mayAlias(*out, *table));
}

TEST_CASE("a value stays in a register until a store that may change it, inside nested guards only") {
  const RootRef b = rootOf(Space::Global, nullptr, "b"), local = rootOf(Space::Local, kLocal, "chain");
  const ExprRef i = symbol(1), guard = symbol(2);
  AvailableValues values;
  values.add(b, i, {}, 4);
  CHECK(values.has(b, 4, {}, i));
  CHECK(values.has(b, 4, {guard}, i));       // inside an if: still there
  CHECK_FALSE(values.has(b, 8, {}, i));      // another width
  CHECK_FALSE(values.has(b, 4, {}, symbol(3)));
  values.written(local);
  CHECK(values.has(b, 4, {}, i));            // a local array's store changes nothing else
  values.written(rootOf(Space::Global, nullptr, "c"));
  CHECK_FALSE(values.has(b, 4, {}, i));
  values.add(b, i, {guard}, 4);
  CHECK_FALSE(values.has(b, 4, {}, i));      // loaded under an if: not available after it
}

TEST_CASE("a store keeps the values of its array a constant distance away that it does not overlap") {
  // NiftyReg's `first[3] = ...; first[0] = ... - first[3];` (session 37): nvcc reads first[3] from
  // the register it stored, as the PTX shows.
  const RootRef first = rootOf(Space::Shared, kShared, "first"), other = rootOf(Space::Global, nullptr, "p");
  const ExprRef base = binary(Op::Mul, leaf(Op::ThreadIdx, 0), constant(16));
  const ExprRef at3 = binary(Op::Add, base, constant(12)), at0 = base, at2 = binary(Op::Add, base, constant(8));
  AvailableValues values;
  values.add(first, at3, {}, 4);
  values.written(first, at0, 4);
  CHECK(values.has(first, 4, {}, at3));        // 12 bytes past the store: apart
  values.written(first, at2, 8);               // bytes 8 to 15 overlap it
  CHECK_FALSE(values.has(first, 4, {}, at3));
  values.add(first, at3, {}, 4);
  values.written(first, symbol(7), 4);         // an address at no known distance
  CHECK_FALSE(values.has(first, 4, {}, at3));
  values.add(first, at3, {}, 4);
  values.written(other, at0, 4);               // a pointer that may reach the array: no distance known
  CHECK_FALSE(values.has(first, 4, {}, at3));
}

TEST_CASE("a loop carries the values its body leaves in registers on every path") {
  const RootRef b = rootOf(Space::Global, nullptr, "b"), c = rootOf(Space::Global, nullptr, "c");
  const ExprRef i = symbol(1);
  AvailableValues before;
  before.add(b, i, {}, 4);
  before.add(c, i, {}, 4);
  AvailableValues body = before;
  body.written(b);        // b[i] ^= ...: stored again at the same address
  body.add(b, i, {}, 4);
  const AvailableValues carried = before.survivingLoop(body, {});
  CHECK(carried.has(b, 4, {}, i));
  CHECK_FALSE(carried.has(c, 4, {}, i));  // the store through b may have changed c[i]
}

TEST_CASE("a store overwritten before any read is dead, and a read in between keeps it") {
  const RootRef b = rootOf(Space::Global, nullptr, "b"), chain = rootOf(Space::Local, kLocal, "chain");
  const ExprRef i = symbol(1), guard = symbol(2);
  PendingStores pending;
  CHECK(pending.overwrite(b, i, {}, 4, {0, 1}).empty());
  pending.read(*chain);  // a local array's load reads nothing of b
  const auto dead = pending.overwrite(b, i, {}, 4, {1, 2});
  REQUIRE(dead.size() == 1);
  CHECK(dead[0] == std::make_pair<size_t, size_t>(0, 1));
  CHECK(pending.overwrite(b, i, {guard}, 4, {2, 3}).empty());  // under an if: may not run
  pending.read(*rootOf(Space::Global, nullptr, "other"));       // may read b[i]
  CHECK(pending.overwrite(b, i, {}, 4, {3, 4}).empty());
}
