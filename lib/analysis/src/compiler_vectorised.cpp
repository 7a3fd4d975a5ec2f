#include "compiler_vectorised.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <set>

#include "lane_evaluator.h"

namespace coalesce::analysis {

namespace {

// The loop's trip count when its condition is a constant in the iteration counter alone (a
// template parameter or a literal bound: `i < imgsPerThread`), up to `most`; else none.
std::optional<int> constantTrips(const SymbolInfo& s, int id, int most) {
  if (!s.loopCond || s.loopNext || s.testAfter) return std::nullopt;  // arithmetic loops only
  Bindings b;
  for (int k = 0; k <= most; ++k) {
    b.symbols[id] = k;
    const std::optional<int64_t> holds = evaluate(s.loopCond, b);
    if (!holds) return std::nullopt;  // reads something else: the count is no constant
    if (*holds == 0) return k;
  }
  return std::nullopt;
}

}  // namespace

std::optional<CompilerVectorised> compilerVectorised(const SeenAccess& s, const SymbolTable& symbols,
                                                     const LoopVariables& loopVariables) {
  const RawAccess& raw = s.raw;
  if (raw.space != model::Space::Shared || raw.kind == model::AccessKind::Atomic || s.loops.empty()) return std::nullopt;
  if (raw.bytes != 4 && raw.bytes != 8) return std::nullopt;
  // An `extern __shared__ float s[]` merges as a static array does: nvcc declares it
  // `.extern .shared .align 16` whatever its element type, and ptxas merged its 4 words into
  // one LDS.128 on the H200 (bench/shared_merge/h200/COMMAND.txt). Session 15 had required a
  // declared alignment of 16 and reported a conflict the hardware did not have.
  const int loop = s.loops.back();
  int id = -1;
  if (auto vars = loopVariables.find(loop); vars != loopVariables.end())
    for (int v : vars->second)
      if (symbols[v].tripOf < 0 && symbols[v].exitOf < 0) {
        id = v;
        break;
      }
  if (id < 0) return std::nullopt;
  const std::optional<int> trips = constantTrips(symbols[id], id, 4);
  if (!trips || (*trips != 2 && *trips != 4) || *trips * raw.bytes > 16) return std::nullopt;
  const int64_t width = static_cast<int64_t>(*trips) * raw.bytes;
  // Every iteration runs for every lane that runs the first (no guard reads the counter but
  // the loop's own condition, which holds for each of the constant count's iterations).
  for (const ExprRef& g : raw.guards) {
    if (sameStructure(g, symbols[id].loopCond)) continue;
    std::set<int> read;
    lanes::collectSymbols(g, read);
    if (read.count(id)) return std::nullopt;
  }
  // The address steps one element per iteration, and every lane's first element is aligned to
  // the merged width whatever the other values are (each other term a multiple of it).
  const std::optional<AffineForm> form = linearize(raw.offset);
  if (!form || form->constant % width != 0 || raw.rootAlignment % width != 0) return std::nullopt;
  bool stepsOne = false;
  for (const AffineTerm& t : form->terms) {
    if (t.leaf->op == Op::Symbol && t.leaf->symbolId == id) {
      if (t.coef != raw.bytes || stepsOne) return std::nullopt;
      stepsOne = true;
      continue;
    }
    std::set<int> read;
    lanes::collectSymbols(t.leaf, read);
    if (read.count(id) || t.coef % width != 0) return std::nullopt;
  }
  if (!stepsOne) return std::nullopt;
  CompilerVectorised out;
  out.raw = raw;
  out.raw.bytes = static_cast<int>(width);
  out.raw.offset = substitute(raw.offset, [&](const ExprRef& leaf) -> ExprRef {
    return leaf->op == Op::Symbol && leaf->symbolId == id ? constant(0) : nullptr;
  });
  out.trips = *trips;
  out.loop = loop;
  out.note = "nvcc unrolls the " + std::to_string(*trips) + " iterations of `" + symbols[id].loopText +
             "` and merges this thread's " + std::to_string(*trips) + " accesses of consecutive " +
             std::to_string(raw.bytes) + "-byte words into one " + std::to_string(width) +
             "-byte access (its first word aligned to " + std::to_string(width) +
             " bytes for every lane): the figures are that access's, once per " + std::to_string(*trips) +
             " iterations";
  return out;
}

}  // namespace coalesce::analysis
