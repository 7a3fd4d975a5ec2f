// Speed (docs/analysis-speed.md, "session 30"): a file parsed over the CUDA headers' PCH
// (header_cache.h) does not read back the PCH's roots of deferred diagnostics, nor
// its unused file-scope declarations.
//
// In CUDA mode Sema defers the errors that only count if a function is emitted for the
// device (a host function called from a `__host__ __device__` one, and the like), and at the
// end of the translation unit walks the call graph from a list of roots to emit those that
// are reached (Sema::emitDeferredDiags). The PCH of the forced includes records its own
// roots, thousands of the CUDA and C++ headers' functions, and the reader deserialises every
// one of them in each file that uses the PCH, whatever the file calls: a third of the CPU of
// a trivial file's parse over the PCH. What a walk from those roots alone reaches is the
// headers' own code, never the user's: the file's own functions are roots of the file's
// parse, kept, and the walk from them still enters any header function they call. So every
// deferred error in the file's code, or in a header function it calls, is reported as before
// (header_cache_test.cpp; the records of the examples, the golden inputs and the Rodinia and
// CUDA-samples trees are the same with and without: bench/RESULTS.md, "Session 30").
#pragma once

#include <clang/Sema/ExternalSemaSource.h>
#include <clang/Sema/MultiplexExternalSemaSource.h>
#include <clang/Sema/Sema.h>
#include <llvm/ADT/SetVector.h>

namespace coalesce::analysis {

// The PCH reader as Sema's external source, forwarding everything but the two lists read at the
// end of the translation unit.
class WithoutPchEndOfUnitLists : public clang::MultiplexExternalSemaSource {
 public:
  // `reader`: Sema's external source (the PCH reader); the second source of the multiplexer
  // answers nothing (ExternalSemaSource's defaults).
  explicit WithoutPchEndOfUnitLists(clang::ExternalSemaSource* reader)
      : clang::MultiplexExternalSemaSource(reader, new clang::ExternalSemaSource) {}
  void ReadDeclsToCheckForDeferredDiags(llvm::SmallSetVector<clang::Decl*, 4>&) override {}
  // Likewise the headers' file-scope declarations nothing used, read back at the end of the
  // translation unit only to warn about them ("unused function"): warnings in system headers
  // are not shown, and the analysis keeps errors only (error_collector.h).
  void ReadUnusedFileScopedDecls(llvm::SmallVectorImpl<const clang::DeclaratorDecl*>&) override {}
};

// Once Sema has its external source (after Sema::Initialize: call it from the first
// top-level declaration), wraps it. Nothing when there is none.
inline void skipPchEndOfUnitLists(clang::Sema& sema) {
  if (!sema.ExternalSource || llvm::isa<clang::MultiplexExternalSemaSource>(sema.ExternalSource.get())) return;
  sema.ExternalSource = new WithoutPchEndOfUnitLists(sema.ExternalSource.get());
}

}  // namespace coalesce::analysis
