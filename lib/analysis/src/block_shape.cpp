#include "block_shape.h"

#include <clang/AST/Attr.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>
#include <string>

#include "analysis_policy.h"
#include "coalesce/records/block_detail.h"

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
// 256-byte boundary (cudaMalloc's alignment). At most kMaxEnvironments.
std::vector<LaunchContext> recordedContexts(const FunctionDecl* fn, const std::string& mangledName,
                                            const std::map<unsigned, int>& paramSymbols,
                                            const TranslationUnitOptions& options, const ASTContext& ctx) {
  std::vector<LaunchContext> out;
  if (!options.recordedLaunches || mangledName.empty()) return out;
  for (const RecordedLaunch& r : *options.recordedLaunches) {
    if (r.kernel != mangledName || out.size() >= kMaxEnvironments) continue;
    if (r.block.volume() <= 0 || r.block.volume() > options.arch.maxThreadsPerBlock) continue;
    LaunchContext c;
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

}  // namespace

LaunchContext fallbackContext(const FunctionDecl* fn, const TranslationUnitOptions& options, const ASTContext& ctx,
                              const bool threadDimsUsed[3]) {
  LaunchContext c;
  if (const auto* lb = fn->getAttr<CUDALaunchBoundsAttr>()) {
    Expr::EvalResult r;
    if (lb->getMaxThreads() && !lb->getMaxThreads()->isValueDependent() &&
        lb->getMaxThreads()->EvaluateAsInt(r, ctx) && r.Val.isInt()) {
      c.block.dim = {r.Val.getInt().getExtValue(), 1, 1};
      c.block.source = BlockSource::LaunchBounds;
      c.block.detail = "1D block of " + std::to_string(c.block.dim.x) + " threads from __launch_bounds__";
      c.blockKnown = true;
      return c;
    }
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
  c.blockKnown = false;
  c.block.source = BlockSource::Assumed;
  if (threadDimsUsed[1] || threadDimsUsed[2]) {
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
      c.blockKnown = true;
      c.grid = l.grid;
    } else {
      c = fallbackContext(fn, options, ctx, threadDimsUsed);
      const std::string why = l.how + " at " + l.where + " computes its block at run time";
      const std::string none(kNoLaunchFound);
      if (c.block.detail.rfind(none, 0) == 0) c.block.detail.replace(0, none.size(), why);
      else c.block.detail += " (" + why + ")";
    }
    c.dynamicSharedBytes = l.dynamicSharedBytes;
    for (const auto& [index, value] : l.argValues)
      if (auto p = paramSymbols.find(index); p != paramSymbols.end()) {
        c.symbolValues[p->second] = value;
        c.symbolValueSources[p->second] = l.how + " at " + l.where;
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
