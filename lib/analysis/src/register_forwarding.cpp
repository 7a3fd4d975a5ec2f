// What nvcc keeps in registers: forwarded loads and dead stores (register_forwarding.h).
#include "register_forwarding.h"

#include <algorithm>
#include <functional>

namespace coalesce::analysis {

namespace {

// Larger address expressions are not compared (the comparison would cost more than it saves).
constexpr uint64_t kMaxComparedSize = 256;
// Values kept per walk, and pending stores per alias class: beyond them the oldest are
// forgotten (a forwarding or a dead store missed, never one invented).
constexpr size_t kMaxValues = 4096;
constexpr size_t kRecentKept = 32;
constexpr size_t kMaxPendingPerClass = 4096;

// The alias class of every pointer that is not a memory variable's.
char kPointers = 0;

const void* aliasClassOf(const Root& r) { return r.var ? static_cast<const void*>(r.var) : &kPointers; }

RootRef representativeOf(const RootRef& r) {
  if (r->var) return r;
  auto rep = std::make_shared<Root>();
  rep->name = "pointers";
  return rep;
}

uint64_t hashOf(const Root* root, int64_t bytes, const ExprRef& offset) {
  const uint64_t h = std::hash<const void*>{}(root) ^ (static_cast<uint64_t>(bytes) * 0x9e3779b97f4a7c15ULL);
  return h * 31 + (offset ? offset->hash : 0);
}

// `prefix` holds the first guards of `guards`: code under `guards` runs only where code under
// `prefix` does.
bool isPrefix(const std::vector<ExprRef>& prefix, const std::vector<ExprRef>& guards) {
  return prefix.size() <= guards.size() && std::equal(prefix.begin(), prefix.end(), guards.begin());
}

}  // namespace

bool mayAlias(const Root& written, const Root& read) {
  if (&written == &read) return true;
  if (read.space == model::Space::Constant) return false;  // written only by the host
  if (written.var && read.var) return written.var == read.var;
  // A pointer and a memory variable: a local array is reached only by its name; a kernel's
  // pointers are generic where nvcc optimises, so they may point into __shared__ memory (the
  // H200 keeps fp16ScalarProduct's shared store before a loop of loads through its pointer
  // parameters, and the same one after it) or at a __device__ array.
  const Root* variable = written.var ? &written : read.var ? &read : nullptr;
  return !variable || variable->space != model::Space::Local;
}

// Not symbolic.h's sameStructure: two lane-varying leaves that are not the same node are two
// values here, and expressions above kMaxComparedSize are not compared.
bool sameAddress(const ExprRef& a, const ExprRef& b) {
  if (a == b) return true;
  if (!a || !b || a->op != b->op || a->value != b->value || a->symbolId != b->symbolId ||
      a->args.size() != b->args.size() || a->size > kMaxComparedSize)
    return false;
  // Each of these stands for a value of its own (loaded, or not followable).
  if (a->op == Op::UniformLoad || a->op == Op::LaneLoad || a->op == Op::Varying) return false;
  for (size_t i = 0; i < a->args.size(); ++i)
    if (!sameAddress(a->args[i], b->args[i])) return false;
  return true;
}

// ---- AvailableValues ----------------------------------------------------------------------

void AvailableValues::clear() {
  values_.clear();
  recent_.clear();
  byHash_.clear();
  classes_.clear();
}

bool AvailableValues::valid(const Entry& e) const {
  auto it = classes_.find(e.aliasClass);
  return it != classes_.end() && it->second.epoch == e.epoch;
}

void AvailableValues::written(const RootRef& root, const ExprRef& offset, int64_t bytes) {
  // The recent values of this root the store cannot overlap, while still valid.
  std::vector<Entry> kept;
  if (offset && bytes > 0) {
    const auto [rest, at] = splitConstant(offset);
    for (size_t i : recent_) {
      const Entry& e = values_[i];
      if (e.root != root || !valid(e)) continue;
      const auto [eRest, eAt] = splitConstant(e.offset);
      if (sameAddress(rest, eRest) && (eAt + e.bytes <= at || at + bytes <= eAt)) kept.push_back(e);
    }
  }
  for (auto& [key, cls] : classes_)
    if (mayAlias(*root, *cls.representative)) ++cls.epoch;
  for (const Entry& e : kept) add(e.root, e.offset, e.guards, e.bytes);
}

void AvailableValues::add(const RootRef& root, const ExprRef& offset, const std::vector<ExprRef>& guards,
                          int64_t bytes) {
  if (values_.size() >= kMaxValues) compact();
  const void* key = aliasClassOf(*root);
  auto [it, inserted] = classes_.try_emplace(key);
  if (inserted) it->second.representative = representativeOf(root);
  byHash_.emplace(hashOf(root.get(), bytes, offset), values_.size());
  if (recent_.size() == kRecentKept) recent_.erase(recent_.begin());
  recent_.push_back(values_.size());
  values_.push_back(Entry{root, offset, guards, bytes, key, it->second.epoch, nullptr});
}

void AvailableValues::compact() {
  std::vector<Entry> kept;
  for (Entry& e : values_)
    if (valid(e)) kept.push_back(std::move(e));
  if (kept.size() > kMaxValues / 2) kept.erase(kept.begin(), kept.end() - kMaxValues / 2);
  values_ = std::move(kept);
  recent_.clear();
  byHash_.clear();
  for (size_t i = 0; i < values_.size(); ++i)
    byHash_.emplace(hashOf(values_[i].root.get(), values_[i].bytes, values_[i].offset), i);
}

std::optional<size_t> AvailableValues::entryAt(const RootRef& root, int64_t bytes, const std::vector<ExprRef>& guards,
                                               const ExprRef& offset) const {
  auto [first, last] = byHash_.equal_range(hashOf(root.get(), bytes, offset));
  for (auto it = first; it != last; ++it) {
    const Entry& v = values_[it->second];
    if (v.root == root && v.bytes == bytes && valid(v) && isPrefix(v.guards, guards) && sameAddress(v.offset, offset))
      return it->second;
  }
  return std::nullopt;
}

bool AvailableValues::has(const RootRef& root, int64_t bytes, const std::vector<ExprRef>& guards,
                          const ExprRef& offset) const {
  return entryAt(root, bytes, guards, offset).has_value();
}

ExprRef AvailableValues::valueAt(const RootRef& root, int64_t bytes, const std::vector<ExprRef>& guards,
                                 const ExprRef& offset) const {
  const std::optional<size_t> at = entryAt(root, bytes, guards, offset);
  return at ? values_[*at].value : nullptr;
}

void AvailableValues::attachValue(const RootRef& root, int64_t bytes, const std::vector<ExprRef>& guards,
                                  const ExprRef& offset, ExprRef value) {
  if (const std::optional<size_t> at = entryAt(root, bytes, guards, offset)) values_[*at].value = std::move(value);
}

AvailableValues AvailableValues::survivingLoop(const AvailableValues& endOfBody,
                                               const std::vector<ExprRef>& entryGuards) const {
  AvailableValues out;
  for (const Entry& e : values_)
    if (valid(e) && isPrefix(e.guards, entryGuards) && endOfBody.has(e.root, e.bytes, entryGuards, e.offset)) {
      out.add(e.root, e.offset, e.guards, e.bytes);
      out.values_.back().value = e.value;  // stored before the loop and not written in it
    }
  return out;
}

// ---- PendingStores ------------------------------------------------------------------------

void PendingStores::clear() { buckets_.clear(); }

void PendingStores::read(const Root& root) {
  for (auto& [key, bucket] : buckets_)
    if (!bucket.entries.empty() && mayAlias(*bucket.representative, root)) {
      bucket.entries.clear();
      bucket.byHash.clear();
    }
}

std::vector<std::pair<size_t, size_t>> PendingStores::overwrite(const RootRef& root, const ExprRef& offset,
                                                                const std::vector<ExprRef>& guards, int64_t bytes,
                                                                std::pair<size_t, size_t> events) {
  std::vector<std::pair<size_t, size_t>> dead;
  auto [it, inserted] = buckets_.try_emplace(aliasClassOf(*root));
  Bucket& bucket = it->second;
  if (inserted) bucket.representative = representativeOf(root);
  const uint64_t h = hashOf(root.get(), bytes, offset);
  auto [first, last] = bucket.byHash.equal_range(h);
  for (auto e = first; e != last; ++e) {
    Entry& p = bucket.entries[e->second];
    if (!p.gone && p.root == root && p.bytes == bytes && isPrefix(guards, p.guards) && sameAddress(p.offset, offset)) {
      p.gone = true;
      dead.push_back(p.events);
    }
  }
  if (bucket.entries.size() >= kMaxPendingPerClass) {
    bucket.entries.clear();
    bucket.byHash.clear();
  }
  bucket.byHash.emplace(h, bucket.entries.size());
  bucket.entries.push_back(Entry{root, offset, guards, bytes, events, false});
  return dead;
}

}  // namespace coalesce::analysis
