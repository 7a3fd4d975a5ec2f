// A FrontendActionFactory that lets its caller change the compiler invocation the driver
// built before the frontend runs (lib/analysis/src/analyze.cpp: the file's parse over a
// preamble or a PCH, and the headers' PCH build).
#pragma once

#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Tooling/Tooling.h>

#include <functional>
#include <memory>

namespace coalesce::analysis {

// Runs the driver as ToolInvocation does, then lets `adjust` change the compiler
// invocation before the frontend starts (false: do not run).
class AdjustingFactory : public clang::tooling::FrontendActionFactory {
 public:
  AdjustingFactory(std::function<std::unique_ptr<clang::FrontendAction>()> make,
                   std::function<bool(clang::CompilerInvocation&)> adjust)
      : make_(std::move(make)), adjust_(std::move(adjust)) {}
  std::unique_ptr<clang::FrontendAction> create() override { return make_(); }
  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> invocation, clang::FileManager* files,
                     std::shared_ptr<clang::PCHContainerOperations> pch, clang::DiagnosticConsumer* diags) override {
    if (!adjust_(*invocation)) return false;
    return FrontendActionFactory::runInvocation(std::move(invocation), files, std::move(pch), diags);
  }

 private:
  std::function<std::unique_ptr<clang::FrontendAction>()> make_;
  std::function<bool(clang::CompilerInvocation&)> adjust_;
};

}  // namespace coalesce::analysis
