// What nvcc keeps in registers rather than in memory, as the walk over one thread's code
// sees it (interpreter_memory.cpp calls these on every access):
//   - a load of what this thread has just loaded or stored at the same address is forwarded
//     from a register (`float& r = a[i]; r += 1.0f; ... + r`, `x[i] * x[i]`, a hash's
//     `b[i] ^= t[j]` chain): no instruction, so no access to judge;
//   - a store that the same thread overwrites at the same address before anything may read
//     it is dead (`b[i] = 0;` then the chain, then `b[i] = swab(b[i])`): nvcc drops it.
// "Anything that may read or change it" follows what nvcc's alias analysis tells apart: two
// memory variables (a __shared__, __device__ or local array each) never overlap, a local
// array is reached only by its own name, __constant__ memory is never written, and any
// pointer may reach anything else (a kernel's pointers are generic where nvcc optimises). Barriers, fences, atomics and unknown calls end
// everything. ccminer's luffa finalisation (docs/precision.md, panel 18) showed both kinds:
// its PTX holds the 16 final stores and none of the loads and zero stores in between.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "memory_root.h"

namespace coalesce::analysis {

// Whether a store through `written` may change memory read through `read`.
bool mayAlias(const Root& written, const Root& read);
// Whether two address expressions are the same address (structurally; each load is only
// itself; expressions above a size are not compared).
bool sameAddress(const ExprRef& a, const ExprRef& b);

// Values available in registers: each added by a load or a store, under the guards then in
// force, and usable where those guards are a prefix of the current ones (inside a nested if
// or loop), until a store that may alias it. Indexed by (root, bytes, address hash) so that a
// body of N accesses costs N lookups, not N^2 comparisons; bounded (the oldest dropped).
class AvailableValues {
 public:
  void clear();
  // A store (or an unknown write) through `root`: every value it may change is gone. Given the
  // store's address and width, the values of the same root a constant distance away that the
  // store does not overlap stay (`first[3] = ...; first[0] = ... - first[3];` keeps first[3]
  // in a register, as nvcc does); only among the last kRecentKept values added, so that a
  // store costs a bounded scan.
  void written(const RootRef& root, const ExprRef& offset = nullptr, int64_t bytes = 0);
  void add(const RootRef& root, const ExprRef& offset, const std::vector<ExprRef>& guards, int64_t bytes);
  bool has(const RootRef& root, int64_t bytes, const std::vector<ExprRef>& guards, const ExprRef& offset) const;
  // The value the thread last stored there, where one is kept (attachValue) and `has` holds:
  // what a thread-private array's element read back is (`si[i] = i * THREADS + tid;` then
  // `... + si[i]`: nheqminer's slot index, a register, not data from memory); else null.
  ExprRef valueAt(const RootRef& root, int64_t bytes, const std::vector<ExprRef>& guards, const ExprRef& offset) const;
  // Keeps `value` with the entry a store at that address just added.
  void attachValue(const RootRef& root, int64_t bytes, const std::vector<ExprRef>& guards, const ExprRef& offset,
                   ExprRef value);
  // The values of `this` (before a loop) still available at the end of one walk of its body
  // (`endOfBody`, which started from a copy of `this`) on every path, `entryGuards` being the
  // guards at the loop: these are in registers at the start of every iteration and after
  // the loop.
  AvailableValues survivingLoop(const AvailableValues& endOfBody, const std::vector<ExprRef>& entryGuards) const;

 private:
  // Memory that one store either may or may not change as a whole: one memory variable, or
  // what every pointer that is not a variable's reaches.
  struct AliasClass {
    RootRef representative;
    uint64_t epoch = 0;
  };
  struct Entry {
    RootRef root;
    ExprRef offset;
    std::vector<ExprRef> guards;
    int64_t bytes = 0;
    const void* aliasClass = nullptr;
    uint64_t epoch = 0;
    ExprRef value;  // the integer stored there, where kept (attachValue); else null
  };
  // The index in values_ of the valid entry for that address under `guards`, if any.
  std::optional<size_t> entryAt(const RootRef& root, int64_t bytes, const std::vector<ExprRef>& guards,
                                const ExprRef& offset) const;
  bool valid(const Entry& e) const;
  void compact();
  std::vector<Entry> values_;
  std::vector<size_t> recent_;  // indices into values_ of the last values added, oldest first
  std::unordered_multimap<uint64_t, size_t> byHash_;
  std::unordered_map<const void*, AliasClass> classes_;
};

// Stores not yet read since they were made, each with the range of events it recorded, so
// that a later store of this thread to the same address marks them dead.
class PendingStores {
 public:
  void clear();
  // A load from memory through `root`: the stores it may read are needed.
  void read(const Root& root);
  // A store through `root`: the pending stores it overwrites (same root, bytes and address,
  // made under guards that include all of `guards`, so that this store runs wherever they
  // ran) are returned as event ranges [first, last) and forgotten; then it is pending.
  std::vector<std::pair<size_t, size_t>> overwrite(const RootRef& root, const ExprRef& offset,
                                                   const std::vector<ExprRef>& guards, int64_t bytes,
                                                   std::pair<size_t, size_t> events);

 private:
  struct Entry {
    RootRef root;
    ExprRef offset;
    std::vector<ExprRef> guards;
    int64_t bytes = 0;
    std::pair<size_t, size_t> events;
    bool gone = false;
  };
  // Per alias class, so that a load forgets a whole class at once.
  struct Bucket {
    RootRef representative;
    std::vector<Entry> entries;
    std::unordered_multimap<uint64_t, size_t> byHash;
  };
  std::unordered_map<const void*, Bucket> buckets_;
};

}  // namespace coalesce::analysis
