// Errors cross the library boundary as plain strings, so that callers (the CLI, with
// CLI11 and RTTI) need neither LLVM headers nor exceptions; llvm::Error stays in src/.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace coalesce::report {

struct ReportError {
  std::string message;  // one line, already prefixed with the file (and position) it is about
};

// A value or the error that prevented it.
template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}             // NOLINT(google-explicit-constructor)
  Result(ReportError error) : v_(std::move(error)) {}   // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& operator*() { return std::get<0>(v_); }
  const T& operator*() const { return std::get<0>(v_); }
  T* operator->() { return &std::get<0>(v_); }
  const T* operator->() const { return &std::get<0>(v_); }
  const ReportError& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, ReportError> v_;
};

// For operations that produce nothing: nullopt on success.
using MaybeError = std::optional<ReportError>;

}  // namespace coalesce::report
