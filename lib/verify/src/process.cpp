#include "coalesce/verify/process.h"

#include "coalesce/verify/format_number.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace coalesce::verify {

std::string RunResult::describe() const {
  if (!started) return fmt::format("could not be started: {}", error);
  if (timedOut)
    return fmt::format("did not finish within {} s and was killed", formatNumber(seconds, NumberStyle::Shortest));
  if (signal) return fmt::format("was killed by signal {} ({})", signal, strsignal(signal));
  return fmt::format("exited with status {}", exitCode);
}

std::optional<std::string> findInPath(const std::string& name) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos) {
    if (access(name.c_str(), X_OK) == 0) return name;
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    const std::string dir = end > start ? p.substr(start, end - start) : std::string(".");
    const std::string candidate = fmt::format("{}/{}", dir, name);
    struct stat st {};
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(candidate.c_str(), X_OK) == 0)
      return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

bool isExecutable(const std::string& path) { return access(path.c_str(), X_OK) == 0; }

std::string makeTemporaryDirectory(const std::string& prefix) {
  std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary directory");
  return pattern;
}

RunResult runProcess(const RunOptions& options) {
  RunResult r;
  if (options.argv.empty()) {
    r.error = "no command";
    return r;
  }
  const auto exe = findInPath(options.argv[0]);
  if (!exe) {
    r.error = fmt::format("{}: no such executable", options.argv[0]);
    return r;
  }
  // Environment: ours, with the extra variables replacing any of the same name.
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    const std::string key = kv.substr(0, kv.find('='));
    if (!options.extraEnv.count(key)) env.push_back(kv);
  }
  for (const auto& [k, v] : options.extraEnv) env.push_back(fmt::format("{}={}", k, v));
  std::vector<char*> envp, argv;
  for (std::string& s : env) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = options.argv;
  for (std::string& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);

  int errPipe[2];
  if (pipe(errPipe) != 0) {
    r.error = fmt::format("pipe: {}", std::strerror(errno));
    return r;
  }
  fcntl(errPipe[1], F_SETFD, FD_CLOEXEC);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    r.error = fmt::format("fork: {}", std::strerror(errno));
    close(errPipe[0]);
    close(errPipe[1]);
    return r;
  }
  if (pid == 0) {
    setpgid(0, 0);
    close(errPipe[0]);
    if (!options.captureFile.empty()) {
      const int fd = open(options.captureFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
      }
    } else if (options.stdoutToStderr) {
      dup2(2, 1);
    }
    execve(exe->c_str(), argv.data(), envp.data());
    const int err = errno;
    (void)!write(errPipe[1], &err, sizeof err);
    _exit(127);
  }
  setpgid(pid, pid);
  close(errPipe[1]);
  int execErr = 0;
  const bool execFailed = read(errPipe[0], &execErr, sizeof execErr) == static_cast<ssize_t>(sizeof execErr);
  close(errPipe[0]);
  int status = 0;
  bool killed = false;
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  std::optional<double> termAt;
  for (;;) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    const double t = elapsed();
    if (!termAt && t > options.timeoutSeconds) {
      kill(-pid, SIGTERM);
      termAt = t;
      killed = true;
    } else if (termAt && t > *termAt + 2.0) {
      kill(-pid, SIGKILL);
      termAt = t + 1e9;  // once
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (execFailed) {
    r.error = fmt::format("{}: {}", options.argv[0], std::strerror(execErr));
    return r;
  }
  r.started = true;
  r.seconds = killed ? options.timeoutSeconds : elapsed();
  r.timedOut = killed;
  if (WIFEXITED(status)) r.exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

namespace {
using CuInit = int (*)(unsigned);
using CuDeviceGetCount = int (*)(int*);
using CuDeviceGet = int (*)(int*, int);
using CuDeviceGetAttribute = int (*)(int*, int, int);
using CuDeviceGetName = int (*)(char*, int, int);
using CuGetErrorString = int (*)(int, const char**);
constexpr int kCcMajor = 75, kCcMinor = 76;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_*
}  // namespace

GpuInfo probeGpu() {
  GpuInfo g;
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    g.error = "no GPU: the NVIDIA driver library libcuda.so.1 cannot be loaded (no NVIDIA driver on this machine)";
    return g;
  }
  auto sym = [&](const char* n) { return dlsym(lib, n); };
  auto init = reinterpret_cast<CuInit>(sym("cuInit"));
  auto count = reinterpret_cast<CuDeviceGetCount>(sym("cuDeviceGetCount"));
  auto get = reinterpret_cast<CuDeviceGet>(sym("cuDeviceGet"));
  auto attr = reinterpret_cast<CuDeviceGetAttribute>(sym("cuDeviceGetAttribute"));
  auto name = reinterpret_cast<CuDeviceGetName>(sym("cuDeviceGetName"));
  auto errStr = reinterpret_cast<CuGetErrorString>(sym("cuGetErrorString"));
  if (!init || !count || !get || !attr || !name) {
    g.error = "no GPU: libcuda.so.1 lacks the driver API";
    return g;
  }
  if (int rc = init(0); rc != 0) {
    const char* s = nullptr;
    if (errStr) errStr(rc, &s);
    g.error = fmt::format("no GPU: cuInit failed ({})", s ? s : std::to_string(rc));
    return g;
  }
  if (count(&g.count) != 0 || g.count == 0) {
    g.error = "no GPU: the driver sees no CUDA device";
    return g;
  }
  int dev = 0, major = 0, minor = 0;
  get(&dev, 0);
  attr(&major, kCcMajor, dev);
  attr(&minor, kCcMinor, dev);
  char buf[256] = {};
  name(buf, sizeof buf, dev);
  g.name = buf;
  g.sm = major * 10 + minor;
  g.ok = true;
  return g;
}

std::string tryLoadLibrary(const std::string& path) {
  void* h = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (!h) {
    const char* e = dlerror();
    return e ? e : "unknown dlopen error";
  }
  dlclose(h);
  return {};
}

}  // namespace coalesce::verify
