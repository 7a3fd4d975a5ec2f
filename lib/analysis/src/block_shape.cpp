#include "block_shape.h"

#include <clang/AST/Attr.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>
#include <string>

#include "analysis_policy.h"

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
    c.block.detail = "no launch found: assumes a " + std::string(threadDimsUsed[2] ? "32x4x2" : "32x8") +
                     " block, as the kernel uses threadIdx." + (threadDimsUsed[2] ? "z" : "y") +
                     " (set it with --block-dim or a `coalesce-lint: block=` comment)";
    return c;
  }
  c.block.dim = {kAssumedBlockX, 1, 1};
  c.block.detail = "no launch found: assumes a 1D block whose blockDim.x is a multiple of 32 (figures use " +
                   std::to_string(kAssumedBlockX) + ")";
  return c;
}

std::vector<LaunchContext> kernelContexts(const FunctionDecl* fn, const std::vector<Launch>* launches,
                                          const std::map<unsigned, int>& paramSymbols,
                                          const TranslationUnitOptions& options, const ASTContext& ctx,
                                          const bool threadDimsUsed[3]) {
  if (!launches) return {fallbackContext(fn, options, ctx, threadDimsUsed)};
  std::vector<LaunchContext> contexts;
  // Launches whose block is computed at run time count only when no launch gives one.
  const bool anyBlockKnown = std::any_of(launches->begin(), launches->end(), [](const Launch& l) { return l.blockKnown; });
  for (const Launch& l : *launches) {
    if (anyBlockKnown && !l.blockKnown) continue;
    LaunchContext c;
    if (l.blockKnown) {
      c.block.dim = l.block;
      c.block.source = BlockSource::Launch;
      c.block.detail = "block " + std::to_string(l.block.x) + "x" + std::to_string(l.block.y) + "x" +
                       std::to_string(l.block.z) + " from the launch at " + l.where;
      c.blockKnown = true;
      c.grid = l.grid;
    } else {
      c = fallbackContext(fn, options, ctx, threadDimsUsed);
      const std::string why = "the launch at " + l.where + " computes its block at run time";
      const std::string none = "no launch found";
      if (c.block.detail.rfind(none, 0) == 0) c.block.detail.replace(0, none.size(), why);
      else c.block.detail += " (" + why + ")";
    }
    for (const auto& [index, value] : l.argValues)
      if (auto p = paramSymbols.find(index); p != paramSymbols.end()) {
        c.symbolValues[p->second] = value;
        c.symbolValueSources[p->second] = "the launch at " + l.where;
      }
    for (const auto& [index, bytes] : l.pointerOffsets) {
      c.pointerByteOffsets[static_cast<int>(index)] = bytes;
      c.pointerOffsetSources[static_cast<int>(index)] = "the launch at " + l.where;
    }
    contexts.push_back(std::move(c));
  }
  return contexts;
}

}  // namespace coalesce::analysis
