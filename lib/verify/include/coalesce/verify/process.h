// Running a program with a time limit (POSIX), and finding the GPU without linking
// against CUDA (libcuda.so.1 is opened at run time, so the CLI also runs on machines
// without a driver and says so).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace coalesce::verify {

struct RunOptions {
  std::vector<std::string> argv;                 // argv[0] is looked up in PATH when it has no '/'
  std::map<std::string, std::string> extraEnv;   // added to (or replacing in) the current environment
  double timeoutSeconds = 120;
  bool stdoutToStderr = false;  // keep the child's stdout off ours (the report goes there)
  std::string captureFile;      // if set, the child's stdout and stderr go to this file instead
};

struct RunResult {
  bool started = false;
  bool timedOut = false;
  int exitCode = -1;  // when it exited normally
  int signal = 0;     // when a signal ended it
  double seconds = 0;
  std::string error;  // why it did not start

  bool succeeded() const { return started && !timedOut && signal == 0 && exitCode == 0; }
  // One line: "exited with status 3", "was killed by signal 11 (Segmentation fault)",
  // "did not finish within 5 s and was killed".
  std::string describe() const;
};

// Runs argv in its own process group; on timeout sends SIGTERM to the group, then
// SIGKILL two seconds later.
RunResult runProcess(const RunOptions& options);

// The first executable named `name` in PATH (or `name` itself when it has a '/').
std::optional<std::string> findInPath(const std::string& name);

// Whether this process may execute `path` (access(X_OK): std::filesystem's permission
// bits do not say which of owner, group and others applies to us).
bool isExecutable(const std::string& path);

// A new folder with a unique name under std::filesystem::temp_directory_path(), created
// atomically (mkdtemp: std::filesystem has no such call). Throws std::runtime_error.
std::string makeTemporaryDirectory(const std::string& prefix);

struct GpuInfo {
  bool ok = false;
  std::string error;  // one line when !ok
  std::string name;
  int sm = 0;  // compute capability major*10+minor of device 0
  int count = 0;
};

// Opens libcuda.so.1, calls cuInit and reads device 0. Never throws.
GpuInfo probeGpu();

// Tries to load a shared library (the injection library, which needs libcupti);
// returns dlerror()'s text on failure, empty on success.
std::string tryLoadLibrary(const std::string& path);

}  // namespace coalesce::verify
