// Process isolation (worker.h): the parent side spawns `coalesce-lint --worker` per file,
// hands it the job on a socket, reads its records back with a deadline, and names what
// went wrong when it dies or overruns; the worker side runs the in-process pass on one job.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "coalesce/analysis/worker.h"
#include "worker_process.h"

extern char** environ;

namespace coalesce::analysis {

namespace {

using Clock = std::chrono::steady_clock;

std::string signalName(int sig) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
  const char* abbrev = sigabbrev_np(sig);
  const char* text = sigdescr_np(sig);
  std::string name = abbrev ? "SIG" + std::string(abbrev) : "signal " + std::to_string(sig);
  if (text) name += " (" + std::string(text) + ")";
  return name;
#else
  return "signal " + std::to_string(sig);
#endif
}

// The last non-empty line of what the worker printed on stderr, for the one-line reason.
std::string lastLine(const std::string& text) {
  size_t end = text.find_last_not_of("\r\n \t");
  if (end == std::string::npos) return {};
  const size_t start = text.find_last_of('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

bool writeAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// Test-only: make this worker crash or hang on chosen files, to prove the parent copes.
void testTriggers(const std::string& file) {
  auto matches = [&](const char* var) {
    const char* v = std::getenv(var);
    return v && *v && file.find(v) != std::string::npos;
  };
  if (matches("COALESCE_TEST_CRASH_ON")) std::abort();
  if (matches("COALESCE_TEST_HANG_ON"))
    for (;;) pause();
}

}  // namespace

int runWorker() {
#ifdef __linux__
  // A worker never outlives the run that started it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  // Our stdout carries the records alone: anything else that prints goes to stderr.
  const int out = dup(STDOUT_FILENO);
  dup2(STDERR_FILENO, STDOUT_FILENO);
  std::string input;
  char buffer[65536];
  for (;;) {
    const ssize_t n = read(STDIN_FILENO, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    input.append(buffer, static_cast<size_t>(n));
  }
  WorkerJob w;
  if (const std::string error = jobFromJson(input, w); !error.empty()) {
    std::fprintf(stderr, "coalesce-lint worker: unreadable job: %s\n", error.c_str());
    return 2;
  }
  testTriggers(w.job.file);
  AnalysisRequest request;
  request.gpuArch = w.gpuArch;
  request.blockDim = w.blockDim;
  request.assumedValues = w.assumedValues;
  const auto arch = model::parseArch(w.gpuArch);
  WorkerOutcome o = runJobHere(w.job, w.toolchain, request, arch ? *arch : model::defaultArch());
  AnalysisResult records;
  records.files.push_back(std::move(o.file));
  records.kernels = std::move(o.tu.kernels);
  records.accesses = std::move(o.tu.accesses);
  records.branches = std::move(o.tu.branches);
  records.barriers = std::move(o.tu.barriers);
  records.pointerParams = std::move(o.tu.pointerParams);
  if (!writeAll(out, recordsToJson(records))) return 3;
  close(out);
  return 0;
}

std::vector<std::string> selfWorkerCommand() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return {};
  path[n] = '\0';
  if (access(path, X_OK) != 0) return {};
  return {std::string(path), std::string(kWorkerFlag)};
}

WorkerOutcome runJobInWorker(const CompileJob& job, const Toolchain& toolchain, const AnalysisRequest& request) {
  WorkerOutcome outcome;
  outcome.file.path = job.file;
  auto failed = [&](std::string why) {
    outcome.file.status = Status::Failed;
    outcome.file.error = std::move(why);
    return outcome;
  };
  if (request.workerCommand.empty()) return failed("no analysis worker command");
  const std::string input = jobToJson({job, toolchain, request.gpuArch, request.blockDim, request.assumedValues});

  // stdin and stdout on one socket (so a write to a dead worker is an error, not SIGPIPE),
  // stderr on a pipe. Close-on-exec everywhere: workers started by other threads at the
  // same moment must not inherit this one's ends, or its EOF would never come.
  int sock[2], err[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock) != 0)
    return failed(std::string("cannot start the analysis worker: socketpair: ") + std::strerror(errno));
  if (pipe2(err, O_CLOEXEC) != 0) {
    close(sock[0]);
    close(sock[1]);
    return failed(std::string("cannot start the analysis worker: pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, sock[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, sock[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  std::vector<std::string> args = request.workerCommand;
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(sock[1]);
  close(err[1]);
  if (spawned != 0) {
    close(sock[0]);
    close(err[0]);
    return failed("cannot start the analysis worker " + args[0] + ": " + std::strerror(spawned));
  }
  fcntl(sock[0], F_SETFL, fcntl(sock[0], F_GETFL) | O_NONBLOCK);
  fcntl(err[0], F_SETFL, fcntl(err[0], F_GETFL) | O_NONBLOCK);

  const unsigned limit = request.fileTimeoutSeconds;
  const auto deadline = Clock::now() + std::chrono::seconds(limit);
  auto msLeft = [&]() -> int {
    if (limit == 0) return -1;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left <= 0 ? 0 : static_cast<int>(std::min<int64_t>(left, 1000));
  };
  std::string output, errText;
  size_t written = 0;
  bool writing = true, outOpen = true, errOpen = true, timedOut = false;
  char buffer[65536];
  while (outOpen || errOpen) {
    const int wait = msLeft();
    if (wait == 0) {
      timedOut = true;
      break;
    }
    pollfd fds[2] = {{outOpen ? sock[0] : -1, static_cast<short>(POLLIN | (writing ? POLLOUT : 0)), 0},
                     {errOpen ? err[0] : -1, POLLIN, 0}};
    if (poll(fds, 2, wait) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (writing && (fds[0].revents & POLLOUT)) {
      const ssize_t n = send(sock[0], input.data() + written, input.size() - written, MSG_NOSIGNAL);
      if (n > 0) written += static_cast<size_t>(n);
      if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) {
        shutdown(sock[0], SHUT_WR);
        writing = false;
      }
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      const ssize_t n = read(sock[0], buffer, sizeof buffer);
      if (n > 0) output.append(buffer, static_cast<size_t>(n));
      else if (n == 0 || (errno != EAGAIN && errno != EINTR)) outOpen = writing = false;
    }
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
      const ssize_t n = read(err[0], buffer, sizeof buffer);
      if (n > 0) {
        errText.append(buffer, static_cast<size_t>(n));
        if (errText.size() > 16384) errText.erase(0, errText.size() - 8192);
      } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        errOpen = false;
      }
    }
  }
  close(sock[0]);
  close(err[0]);

  // Reap it: a worker that closed its output but does not exit is killed at the deadline.
  int status = 0;
  for (;;) {
    if (timedOut) kill(pid, SIGKILL);
    const pid_t w = waitpid(pid, &status, timedOut ? 0 : WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) return failed(std::string("analysis worker lost: ") + std::strerror(errno));
    if (w == 0) {
      if (msLeft() == 0) timedOut = true;
      else std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  if (timedOut)
    return failed("timed out: not analysed within " + std::to_string(limit) +
                  " s, its worker process was killed (--file-timeout)");
  if (WIFSIGNALED(status))
    return failed("crashed: its worker process was killed by " + signalName(WTERMSIG(status)));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string why = "the analysis worker exited with status " + std::to_string(WEXITSTATUS(status));
    if (const std::string line = lastLine(errText); !line.empty()) why += ": " + line;
    return failed(why);
  }
  AnalysisResult records;
  if (const std::string error = recordsFromJson(output, records); !error.empty())
    return failed("the analysis worker's records could not be read: " + error);
  if (records.files.size() != 1) return failed("the analysis worker's records hold no file record");
  outcome.file = std::move(records.files.front());
  outcome.tu.kernels = std::move(records.kernels);
  outcome.tu.accesses = std::move(records.accesses);
  outcome.tu.branches = std::move(records.branches);
  outcome.tu.barriers = std::move(records.barriers);
  outcome.tu.pointerParams = std::move(records.pointerParams);
  return outcome;
}

}  // namespace coalesce::analysis
