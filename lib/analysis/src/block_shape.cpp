#include "block_shape.h"

#include <clang/AST/Attr.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "analysis_policy.h"
#include "coalesce/records/block_detail.h"
#include "kernel_implied_block.h"

namespace coalesce::analysis {

using namespace clang;

namespace {

// A source annotation in the comment lines just above the kernel:
//   // coalesce-lint: block=32x8
std::optional<model::Dim3> annotatedBlock(const FunctionDecl* fn, const ASTContext& ctx, int64_t maxThreads) {
  const SourceManager& sm = ctx.getSourceManager();
  clang::SourceLocation begin = sm.getExpansionLoc(fn->getBeginLoc());
  bool invalid = false;
  StringRef buffer = sm.getBufferData(sm.getFileID(begin), &invalid);
  if (invalid) return std::nullopt;
  const size_t offset = sm.getFileOffset(begin);
  // The text of the lines just before the declaration.
  size_t from = offset;
  for (int lines = 0; lines < kAnnotationLinesAbove && from > 0; ++lines) {
    const size_t nl = buffer.rfind('\n', from - 1);
    if (nl == StringRef::npos) {
      from = 0;
      break;
    }
    from = nl;
  }
  StringRef above = buffer.slice(from, offset);
  const size_t at = above.rfind("coalesce-lint: block=");
  if (at == StringRef::npos) return std::nullopt;
  StringRef spec = above.substr(at + strlen("coalesce-lint: block="));
  spec = spec.take_while([](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) || ch == 'x'; });
  SmallVector<StringRef, 3> parts;
  spec.split(parts, 'x');
  model::Dim3 d;
  int64_t* dims[3] = {&d.x, &d.y, &d.z};
  for (size_t i = 0; i < parts.size() && i < 3; ++i)
    if (parts[i].getAsInteger(10, *dims[i]) || *dims[i] <= 0) return std::nullopt;
  if (d.volume() > maxThreads) return std::nullopt;
  return d;
}

std::string dims(const model::Dim3& d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

// The value of one recorded argument (little-endian bytes) as the parameter's type reads it.
std::optional<int64_t> argumentValue(const std::vector<uint8_t>& bytes, QualType type, const ASTContext& ctx) {
  if (bytes.empty() || bytes.size() > 8) return std::nullopt;
  if (ctx.getTypeSize(type) != bytes.size() * 8) return std::nullopt;
  uint64_t v = 0;
  for (size_t i = bytes.size(); i-- > 0;) v = (v << 8) | bytes[i];
  if (type->isSignedIntegerType() && bytes.size() < 8 && (v >> (bytes.size() * 8 - 1)) & 1)
    v |= ~uint64_t{0} << (bytes.size() * 8);  // sign-extend
  return static_cast<int64_t>(v);
}

// Contexts from the launches `verify` recorded for this kernel (--launch-info): the block,
// grid and integer arguments as the program ran them, and each pointer's placement past a
// 256-byte boundary (cudaMalloc's alignment). At most kMaxEnvironments: past that, evenly
// spaced ones, each standing for the launches of the configurations up to the next
// (LaunchContext::recordedLaunches), so that a host loop's configurations (nw's 128
// diagonals, scan's sizes) are all represented in the mix of the figures.
std::vector<LaunchContext> recordedContexts(const FunctionDecl* fn, const std::string& mangledName,
                                            const std::map<unsigned, int>& paramSymbols,
                                            const TranslationUnitOptions& options, const ASTContext& ctx) {
  std::vector<LaunchContext> out;
  if (!options.recordedLaunches || mangledName.empty()) return out;
  std::vector<const RecordedLaunch*> mine;
  for (const RecordedLaunch& r : *options.recordedLaunches)
    if (r.kernel == mangledName && r.block.volume() > 0 && r.block.volume() <= options.arch.maxThreadsPerBlock)
      mine.push_back(&r);
  // Configuration k goes to the kept one k * kept / all rounds down to (kept at the start of each share).
  const size_t kept = std::min(mine.size(), kMaxEnvironments);
  std::vector<double> weight(kept, 0);
  for (size_t k = 0; k < mine.size(); ++k) weight[k * kept / mine.size()] += static_cast<double>(mine[k]->launches);
  for (size_t j = 0; j < kept; ++j) {
    const RecordedLaunch& r = *mine[(j * mine.size() + kept - 1) / kept];
    LaunchContext c;
    c.recordedLaunches = weight[j];
    c.block.dim = r.block;
    c.block.source = BlockSource::Launch;
    c.block.detail = "block " + dims(r.block) + " from the launch recorded by verify in " + r.source;
    c.blockKnown = true;
    c.grid = r.grid;
    const std::string where = "the launch recorded by verify in " + r.source;
    for (unsigned i = 0; i < fn->getNumParams() && i < r.args.size(); ++i) {
      const QualType type = fn->getParamDecl(i)->getType().getCanonicalType();
      if (type->isIntegerType()) {
        auto p = paramSymbols.find(i);
        auto v = argumentValue(r.args[i], type, ctx);
        if (p != paramSymbols.end() && v) {
          c.symbolValues[p->second] = *v;
          c.symbolValueSources[p->second] = where;
        }
      } else if (type->isPointerType()) {
        auto address = argumentValue(r.args[i], ctx.getUIntPtrType(), ctx);
        if (address && *address % 256 != 0) {
          c.pointerByteOffsets[static_cast<int>(i)] = *address % 256;
          c.pointerOffsetSources[static_cast<int>(i)] = where;
        }
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}


// The guess when nothing fixes the block: 256 threads in 1D, 32 wide in 2D and 3D.
model::Dim3 guessedBlock(const bool threadDimsUsed[3]) {
  if (threadDimsUsed[2]) return {32, 4, 2};
  if (threadDimsUsed[1]) return {32, 8, 1};
  return {kAssumedBlockX, 1, 1};
}

// __launch_bounds__'s threads for a kernel that uses threadIdx.y (z): rows of 32.
model::Dim3 boundLaidOut(int64_t threads, const bool threadDimsUsed[3]) {
  if (threads < 32 || threads % 32 != 0) return {threads, 1, 1};
  if (threadDimsUsed[2] && threads % 64 == 0) return {32, threads / 64, 2};
  return {32, threads / 32, 1};
}

// The shape the kernel's own code implies (kernel_implied_block.h) where no launch gives one,
// within `maxThreads` (the architecture's limit, or __launch_bounds__'s): every axis the
// kernel uses implied (one of them may be completed by the bound), the `kernel_implied`
// source; some, an assumed shape whose detail says which axes the kernel fixed; none,
// nothing (the plain guess follows).
std::optional<LaunchContext> impliedContext(const FunctionDecl* fn, const ASTContext& ctx, const bool threadDimsUsed[3],
                                            int64_t maxThreads, bool fromLaunchBounds) {
  const KernelBlockEvidence evidence = kernelBlockEvidence(fn, ctx, maxThreads);
  const model::Dim3 guess = guessedBlock(threadDimsUsed);
  const int64_t guessed[3] = {guess.x, guess.y, guess.z};
  int64_t dim[3] = {guess.x, guess.y, guess.z};
  bool implied[3] = {false, false, false};
  std::string why;
  for (int d = 0; d < 3; ++d) {
    const auto& e = evidence.axes[d];
    if (!e || (e->atLeast && e->value <= guessed[d])) continue;
    dim[d] = e->value;
    implied[d] = true;
    why += std::string(why.empty() ? "" : "; ") + "blockDim." + "xyz"[d] + " " + std::to_string(e->value) + " as " + e->why;
  }
  if (!implied[0] && !implied[1] && !implied[2]) return std::nullopt;
  // The axes the kernel uses (x always: a kernel with no threadIdx runs 1D) and the ones
  // its evidence names; an unused axis without evidence is 1.
  const bool used[3] = {true, threadDimsUsed[1] || implied[1], threadDimsUsed[2] || implied[2]};
  for (int d = 1; d < 3; ++d)
    if (!used[d]) dim[d] = 1;
  int missing = -1, missingCount = 0;
  for (int d = 0; d < 3; ++d)
    if (used[d] && !implied[d]) {
      missing = d;
      ++missingCount;
    }
  if (missingCount == 1 && fromLaunchBounds) {
    // __launch_bounds__ gives the product; the axis left is what remains of it.
    int64_t product = 1;
    for (int d = 0; d < 3; ++d)
      if (d != missing) product *= dim[d];
    if (product > 0 && maxThreads % product == 0) {
      dim[missing] = maxThreads / product;
      why += std::string("; blockDim.") + "xyz"[missing] + " " + std::to_string(dim[missing]) + " as __launch_bounds__(" +
             std::to_string(maxThreads) + ") leaves " + std::to_string(maxThreads) + " / " + std::to_string(product);
      missingCount = 0;
    }
  } else if (missingCount == 1 && missing == 1 && implied[0] && dim[0] < 32 && kAssumedBlockX % dim[0] == 0) {
    // A narrow 2D tile (16 wide): the guess keeps 256 threads, square tiles being the rule.
    dim[1] = kAssumedBlockX / dim[0];
  }
  const model::Dim3 shape{dim[0], dim[1], dim[2]};
  if (shape.volume() <= 0 || shape.volume() > maxThreads) return std::nullopt;
  LaunchContext c;
  c.block.dim = shape;
  if (missingCount == 0) {
    c.block.source = BlockSource::KernelImplied;
    c.block.detail = std::string(kNoLaunchFound) + ": the kernel implies a " + dims(shape) + " block: " + why;
    c.blockKnown = true;
    return c;
  }
  c.block.source = BlockSource::Assumed;
  c.blockKnown = false;
  for (int d = 0; d < 3; ++d) c.guessedAxes[d] = used[d] && !implied[d];
  std::string guessedAxes;
  for (int d = 0; d < 3; ++d)
    if (used[d] && !implied[d]) guessedAxes += std::string(guessedAxes.empty() ? "" : ", ") + "blockDim." + "xyz"[d];
  c.block.detail = std::string(kNoLaunchFound) + ": assumes a " + dims(shape) + " block: " + why + "; " + guessedAxes +
                   " guessed (set it with --block-dim or a `coalesce-lint: block=` comment)";
  return c;
}

// A launch that computes its block at run time may still fix some axes: `dim3 block(1, n)`
// fixes x, an integer block fixes y and z to 1 (host_values.cpp, dim3AxesOf). Those axes
// replace the fallback's; the others keep what the kernel's code implies, else are guessed so
// that the block keeps kAssumedBlockX threads (x 32 wide while another axis is left). A shape
// the user gave (comment, --block-dim) is kept as it is.
// Nothing changes (nullopt) when the launch fixes no axis or the result would not be a block.
std::optional<LaunchContext> withLaunchAxes(LaunchContext c, const Dim3Axes& launchAxes, const std::string& launch,
                                            const FunctionDecl* fn, const ASTContext& ctx,
                                            const bool threadDimsUsed[3], int64_t maxThreads) {
  if (!launchAxes[0] && !launchAxes[1] && !launchAxes[2]) return std::nullopt;
  if (c.block.source == BlockSource::Annotation || c.block.source == BlockSource::Option) return std::nullopt;
  const KernelBlockEvidence evidence = kernelBlockEvidence(fn, ctx, maxThreads);
  int64_t dim[3] = {c.block.dim.x, c.block.dim.y, c.block.dim.z};
  enum class From { Launch, Kernel, Guess } from[3];
  std::string implied;
  for (int d = 0; d < 3; ++d) {
    if (launchAxes[d]) {
      if (*launchAxes[d] <= 0) return std::nullopt;
      dim[d] = *launchAxes[d];
      from[d] = From::Launch;
    } else if (c.block.source == BlockSource::KernelImplied || c.block.source == BlockSource::LaunchBounds) {
      from[d] = From::Kernel;  // the fallback's axis rests on the kernel's code already
    } else if (const auto& e = evidence.axes[d]; e && !e->atLeast) {
      dim[d] = e->value;
      from[d] = From::Kernel;
      implied += std::string(implied.empty() ? "" : "; ") + "blockDim." + "xyz"[d] + " " + std::to_string(e->value) +
                 " as " + e->why;
    } else if (d > 0 && !threadDimsUsed[d]) {
      dim[d] = 1;  // an axis the kernel never reads, as in the plain guess
      from[d] = From::Kernel;
    } else {
      from[d] = From::Guess;
    }
  }
  int64_t fixed = 1;
  std::vector<int> guessed;
  for (int d = 0; d < 3; ++d) {
    if (from[d] == From::Guess) guessed.push_back(d);
    else fixed *= dim[d];
  }
  int64_t budget = std::max<int64_t>(1, kAssumedBlockX / std::max<int64_t>(1, fixed));
  for (size_t i = 0; i < guessed.size(); ++i) {
    const int d = guessed[i];
    const bool last = i + 1 == guessed.size();
    dim[d] = last ? budget : d == 0 ? std::min<int64_t>(32, budget) : std::max<int64_t>(1, budget / 2);
    budget = std::max<int64_t>(1, budget / dim[d]);
  }
  const model::Dim3 shape{dim[0], dim[1], dim[2]};
  if (shape.volume() <= 0 || shape.volume() > maxThreads) return std::nullopt;
  std::string known;
  for (int d = 0; d < 3; ++d)
    if (from[d] == From::Launch)
      known += std::string(known.empty() ? "" : ", ") + "blockDim." + "xyz"[d] + " = " + std::to_string(dim[d]);
  std::string guessedAxes;
  for (int d : guessed) guessedAxes += std::string(guessedAxes.empty() ? "" : ", ") + "blockDim." + "xyz"[d];
  c.block.dim = shape;
  c.block.detail = "block " + dims(shape) + ": " + launch + " computes its block at run time but fixes " + known;
  if (!implied.empty()) c.block.detail += "; " + implied;
  if (guessed.empty()) {
    // Every axis is the launch's or the kernel's: as good as a launch the kernel confirms.
    c.block.source = BlockSource::KernelImplied;
    c.blockKnown = true;
  } else {
    c.block.source = BlockSource::Assumed;
    c.blockKnown = false;
    c.guessedAxes = {false, false, false};
    for (int d : guessed) c.guessedAxes[d] = true;
    c.block.detail += "; " + guessedAxes + " guessed (set it with --block-dim or a `coalesce-lint: block=` comment)";
  }
  return c;
}

// "`blockx` 16 and `blocky` 16, the defaults of run-time options (a command-line option changes them)".
std::string joinedDefaults(const std::vector<std::string>& options) {
  std::string list;
  for (size_t i = 0; i < options.size(); ++i)
    list += (i == 0 ? "" : i + 1 == options.size() ? " and " : ", ") + options[i];
  return list + (options.size() > 1 ? ", the defaults of run-time options (a command-line option changes them)"
                                    : ", the default of a run-time option (a command-line option changes it)");
}

}  // namespace

LaunchContext fallbackContext(const FunctionDecl* fn, const TranslationUnitOptions& options, const ASTContext& ctx,
                              const bool threadDimsUsed[3]) {
  LaunchContext c;
  const bool multiDim = threadDimsUsed[1] || threadDimsUsed[2];
  std::optional<int64_t> boundedThreads;  // __launch_bounds__'s maximum
  if (const auto* lb = fn->getAttr<CUDALaunchBoundsAttr>()) {
    Expr::EvalResult r;
    if (lb->getMaxThreads() && !lb->getMaxThreads()->isValueDependent() &&
        lb->getMaxThreads()->EvaluateAsInt(r, ctx) && r.Val.isInt() && r.Val.getInt().getExtValue() > 0)
      boundedThreads = r.Val.getInt().getExtValue();
  }
  if (boundedThreads && !multiDim) {
    c.block.dim = {*boundedThreads, 1, 1};
    c.block.source = BlockSource::LaunchBounds;
    c.block.detail = "1D block of " + std::to_string(c.block.dim.x) + " threads from __launch_bounds__";
    c.blockKnown = true;
    return c;
  }
  // A 2D (3D) kernel with __launch_bounds__: what the kernel implies, its volume within the
  // bound, completed by the bound (kernel_implied_block.h); else the bound laid out 32 wide.
  if (boundedThreads) {
    if (auto implied = impliedContext(fn, ctx, threadDimsUsed, *boundedThreads, true); implied) return *implied;
    c.block.dim = boundLaidOut(*boundedThreads, threadDimsUsed);
    c.block.source = BlockSource::LaunchBounds;
    c.block.detail = "block " + dims(c.block.dim) + ": the " + std::to_string(*boundedThreads) +
                     " threads of __launch_bounds__, 32 wide as the kernel uses threadIdx." +
                     (threadDimsUsed[2] ? "z" : "y");
    c.blockKnown = true;
    return c;
  }
  if (auto annotated = annotatedBlock(fn, ctx, options.arch.maxThreadsPerBlock)) {
    c.block.dim = *annotated;
    c.block.source = BlockSource::Annotation;
    c.block.detail = "block " + std::to_string(c.block.dim.x) + "x" + std::to_string(c.block.dim.y) + "x" +
                     std::to_string(c.block.dim.z) + " from the `coalesce-lint: block=` comment";
    c.blockKnown = true;
    return c;
  }
  if (options.blockDim) {
    c.block.dim = *options.blockDim;
    c.block.source = BlockSource::Option;
    c.block.detail = "block " + std::to_string(c.block.dim.x) + "x" + std::to_string(c.block.dim.y) + "x" +
                     std::to_string(c.block.dim.z) + " from --block-dim";
    c.blockKnown = true;
    return c;
  }
  if (auto implied = impliedContext(fn, ctx, threadDimsUsed, options.arch.maxThreadsPerBlock, false); implied)
    return *implied;
  c.blockKnown = false;
  c.block.source = BlockSource::Assumed;
  c.guessedAxes = {true, threadDimsUsed[1], threadDimsUsed[2]};
  if (multiDim) {
    // A kernel indexed by threadIdx.y (or z) runs on 2D (3D) blocks; 32 wide keeps each
    // warp in one row, the usual layout. Said, and overridable with --block-dim.
    c.block.dim = threadDimsUsed[2] ? model::Dim3{32, 4, 2} : model::Dim3{32, 8, 1};
    c.block.detail = std::string(kNoLaunchFound) + ": assumes a " + std::string(threadDimsUsed[2] ? "32x4x2" : "32x8") +
                     " block, as the kernel uses threadIdx." + (threadDimsUsed[2] ? "z" : "y") +
                     " (set it with --block-dim or a `coalesce-lint: block=` comment)";
    return c;
  }
  c.block.dim = {kAssumedBlockX, 1, 1};
  c.block.detail = std::string(kNoLaunchFound) + ": assumes a 1D block whose blockDim.x is a multiple of 32 (figures use " +
                   std::to_string(kAssumedBlockX) + ")";
  return c;
}

std::vector<LaunchContext> kernelContexts(const FunctionDecl* fn, const std::string& mangledName,
                                          const std::vector<Launch>* launches,
                                          const std::map<unsigned, int>& paramSymbols,
                                          const TranslationUnitOptions& options, const ASTContext& ctx,
                                          const bool threadDimsUsed[3]) {
  if (auto recorded = recordedContexts(fn, mangledName, paramSymbols, options, ctx); !recorded.empty())
    return recorded;
  if (!launches) return {fallbackContext(fn, options, ctx, threadDimsUsed)};
  std::vector<LaunchContext> contexts;
  // Launches whose block is computed at run time count only when no launch gives one.
  // A block of no thread, or of more than the architecture allows, is not a launch that runs
  // (a size the host code left at 0, set later through a reference): not known.
  const auto blockUsable = [&](const Launch& l) {
    return l.blockKnown && l.block.volume() > 0 && l.block.volume() <= options.arch.maxThreadsPerBlock;
  };
  const bool anyBlockKnown = std::any_of(launches->begin(), launches->end(), blockUsable);
  for (const Launch& l : *launches) {
    if (anyBlockKnown && !blockUsable(l)) continue;
    LaunchContext c;
    if (blockUsable(l)) {
      c.block.dim = l.block;
      c.block.source = BlockSource::Launch;
      c.block.detail = "block " + std::to_string(l.block.x) + "x" + std::to_string(l.block.y) + "x" +
                       std::to_string(l.block.z) + " from " + l.how + " at " + l.where;
      if (!l.blockCap.empty()) {
        // Computed at run time under a cap: the block of an input larger than one block.
        c.block.source = BlockSource::LaunchCap;
        c.block.detail = "block " + dims(l.block) + ": " + l.how + " at " + l.where +
                         " computes its block at run time, capped: " + l.blockCap +
                         "; the block of an input larger than one block (verify --launch-info gives the one a run used)";
      } else if (!l.blockDefaults.empty()) {
        // Computed from run-time options: the block the program runs with when none is given.
        c.block.source = BlockSource::LaunchDefault;
        c.block.detail = "block " + dims(l.block) + " from " + l.how + " at " + l.where + " with " +
                         joinedDefaults(l.blockDefaults) + "; set another block with --block-dim";
      }
      c.blockKnown = true;
      c.grid = l.grid;
      // Only over the launch's own block: a grid computed from a block the host computes at
      // run time (`n / threads`) would divide by the default, not by the fallback block.
      c.costGrid = l.costGrid;
      c.costGridLeaves = l.costGridLeaves;
      c.costGridCounters = l.costGridCounters;
      c.costGridOptions = l.costGridOptions;
      // The kernel's arguments under the same defaults, for the same reason.
      for (const auto& [index, d] : l.costArgValues)
        if (auto p = paramSymbols.find(index); p != paramSymbols.end())
          c.costSymbolValues[p->second] = {d.value, d.leaves, d.counters, d.options};
    } else {
      c = fallbackContext(fn, options, ctx, threadDimsUsed);
      if (auto partial = withLaunchAxes(c, l.blockAxes, l.how + " at " + l.where, fn, ctx, threadDimsUsed,
                                        options.arch.maxThreadsPerBlock)) {
        c = std::move(*partial);
      } else {
        const std::string why = l.how + " at " + l.where + " computes its block at run time";
        const std::string none(kNoLaunchFound);
        if (c.block.detail.rfind(none, 0) == 0) c.block.detail.replace(0, none.size(), why);
        else c.block.detail += " (" + why + ")";
      }
    }
    c.dynamicSharedBytes = l.dynamicSharedBytes;
    c.hostRuns = l.runs;
    for (const auto& [index, value] : l.argValues)
      if (auto p = paramSymbols.find(index); p != paramSymbols.end()) {
        c.symbolValues[p->second] = value;
        c.symbolValueSources[p->second] = l.how + " at " + l.where;
      }
    // An integer argument the host computes from run-time options alone, at their defaults
    // (`int ny = 1 << 11; if (argc > 5) ny = atoi(argv[5]);`): the program's default run's
    // value, as for its block (Launch::blockDefaults), rather than a guess of 4096. A value that
    // also rests on a size the code does not fix, or on a host loop's counter, stays for the cost;
    // so does one not above zero, a placeholder the options replace (hybridsort's `int
    // numElements = 0;`, set from argv[1] or the input file), under which nothing would run.
    for (const auto& [index, d] : l.costArgValues)
      if (d.leaves.empty() && d.counters.empty() && !d.options.empty() && d.value > 0)
        if (auto p = paramSymbols.find(index); p != paramSymbols.end() && !c.symbolValues.count(p->second)) {
          c.symbolValues[p->second] = d.value;
          c.symbolValueSources[p->second] = l.how + " at " + l.where + " with " + joinedDefaults(d.options);
          c.defaultedSymbols.insert(p->second);
        }
    for (const auto& [index, bytes] : l.pointerOffsets) {
      c.pointerByteOffsets[static_cast<int>(index)] = bytes;
      c.pointerOffsetSources[static_cast<int>(index)] = l.how + " at " + l.where;
    }
    contexts.push_back(std::move(c));
  }
  return contexts;
}

}  // namespace coalesce::analysis
