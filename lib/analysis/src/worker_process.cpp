// Process isolation (worker.h): the parent forks a child per job, a few at a time, reads
// each child's records back from a pipe with a deadline, and names what went wrong when
// one dies or overruns. One thread does it all with poll(), which keeps the parent
// single-threaded and so safe to fork from.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>

#include "coalesce/analysis/worker.h"
#include "worker_process.h"

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

// The last non-empty line of what the child printed, for the one-line reason.
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

// Test-only: make this child crash or hang on chosen files, to prove the parent copes.
void testTriggers(const std::string& file) {
  auto matches = [&](const char* var) {
    const char* v = std::getenv(var);
    return v && *v && file.find(v) != std::string::npos;
  };
  if (matches("COALESCE_TEST_CRASH_ON")) std::abort();
  if (matches("COALESCE_TEST_HANG_ON"))
    for (;;) pause();
}

// The child's whole life: job i's pass, its records on `out`, and _exit, which runs none
// of the parent's exit handlers and flushes none of its buffers (they are the parent's).
[[noreturn]] void childMain(const IsolatedRun& run, size_t i, pid_t parent, int out, int err) {
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // a child never outlives the run that started it
#endif
  if (getppid() != parent) _exit(4);  // the parent died before prctl took effect
  // Anything the frontend prints goes to the parent's error pipe, never into the report.
  dup2(err, STDOUT_FILENO);
  dup2(err, STDERR_FILENO);
  if (run.inChild) run.inChild();
  testTriggers(run.fileOf(i));
  const WorkerOutcome o = run.run(i);
  _exit(writeAll(out, outcomeToWire(o)) ? 0 : 3);
}

WorkerOutcome failedOutcome(std::string file, std::string why) {
  WorkerOutcome o;
  o.file.path = std::move(file);
  o.file.status = Status::Failed;
  o.file.error = std::move(why);
  return o;
}

struct Child {
  size_t index = 0;
  pid_t pid = -1;
  int out = -1, err = -1;  // read ends; -1 once at EOF
  std::string output, errText;
  Clock::time_point deadline;
};

void readSome(int& fd, std::string& into, size_t cap) {
  char buffer[65536];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0) {
      into.append(buffer, static_cast<size_t>(n));
      if (cap && into.size() > 2 * cap) into.erase(0, into.size() - cap);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    close(fd);  // EOF or a read error: nothing more will come
    fd = -1;
    return;
  }
}

// What a reaped child's status and output mean for its file.
WorkerOutcome outcomeOf(const Child& c, int status, const std::string& file) {
  if (WIFSIGNALED(status))
    return failedOutcome(file, "crashed: its worker process was killed by " + signalName(WTERMSIG(status)));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string why = "the analysis worker exited with status " + std::to_string(WEXITSTATUS(status));
    if (const std::string line = lastLine(c.errText); !line.empty()) why += ": " + line;
    return failedOutcome(file, why);
  }
  WorkerOutcome o;
  if (const std::string error = outcomeFromWire(c.output, o); !error.empty())
    return failedOutcome(file, "the analysis worker's records could not be read: " + error);
  return o;
}

}  // namespace

bool singleThreaded() {
#ifdef __linux__
  std::error_code ec;
  size_t threads = 0;
  for (std::filesystem::directory_iterator it("/proc/self/task", ec), end; !ec && it != end; it.increment(ec))
    ++threads;
  return !ec && threads == 1;
#else
  return false;
#endif
}

std::vector<WorkerOutcome> runIsolated(const IsolatedRun& run) {
  std::vector<WorkerOutcome> outcomes(run.count);
  std::vector<Child> live;
  const pid_t self = getpid();
  const unsigned parallel = std::max(1u, run.parallel);
  auto done = [&](size_t i, WorkerOutcome o) {
    outcomes[i] = std::move(o);
    if (run.finished) run.finished(i);
  };

  auto start = [&](size_t i) {
    if (run.beforeFork) run.beforeFork(i);
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) != 0)
      return done(i, failedOutcome(run.fileOf(i), std::string("cannot start the analysis worker: pipe: ") +
                                                      std::strerror(errno)));
    if (pipe2(err, O_CLOEXEC) != 0) {
      const int e = errno;
      close(out[0]);
      close(out[1]);
      return done(i, failedOutcome(run.fileOf(i), std::string("cannot start the analysis worker: pipe: ") +
                                                      std::strerror(e)));
    }
    const pid_t pid = fork();
    if (pid == 0) {
      close(out[0]);
      close(err[0]);
      for (const Child& c : live) {  // the other children's pipes are the parent's business
        if (c.out >= 0) close(c.out);
        if (c.err >= 0) close(c.err);
      }
      childMain(run, i, self, out[1], err[1]);
    }
    const int forkErrno = errno;
    close(out[1]);
    close(err[1]);
    if (pid < 0) {
      close(out[0]);
      close(err[0]);
      return done(i, failedOutcome(run.fileOf(i), std::string("cannot start the analysis worker: fork: ") +
                                                      std::strerror(forkErrno)));
    }
    fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK);
    fcntl(err[0], F_SETFL, fcntl(err[0], F_GETFL) | O_NONBLOCK);
    Child c;
    c.index = i;
    c.pid = pid;
    c.out = out[0];
    c.err = err[0];
    c.deadline = run.timeoutSeconds ? Clock::now() + std::chrono::seconds(run.timeoutSeconds) : Clock::time_point::max();
    live.push_back(std::move(c));
  };

  size_t next = 0;
  std::vector<pollfd> fds;
  while (next < run.count || !live.empty()) {
    while (live.size() < parallel && next < run.count) start(next++);
    if (live.empty()) continue;

    // Wait for output, a closed pipe, or the nearest deadline (a child that has closed
    // both pipes is about to exit: look again shortly).
    fds.clear();
    auto wake = Clock::time_point::max();
    for (const Child& c : live) {
      if (c.out >= 0) fds.push_back({c.out, POLLIN, 0});
      if (c.err >= 0) fds.push_back({c.err, POLLIN, 0});
      wake = std::min(wake, c.out < 0 && c.err < 0 ? Clock::now() + std::chrono::milliseconds(2) : c.deadline);
    }
    int waitMs = 1000;
    if (wake != Clock::time_point::max()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(wake - Clock::now()).count();
      waitMs = static_cast<int>(std::clamp<int64_t>(left, 0, 1000));
    }
    if (poll(fds.data(), fds.size(), waitMs) < 0 && errno != EINTR) waitMs = 0;

    for (size_t k = 0; k < live.size();) {
      Child& c = live[k];
      if (c.out >= 0) readSome(c.out, c.output, 0);
      if (c.err >= 0) readSome(c.err, c.errText, 8192);
      int status = 0, waitErrno = 0;
      pid_t reaped = 0;
      bool timedOut = false;
      if (c.out < 0 && c.err < 0) reaped = waitpid(c.pid, &status, WNOHANG);
      if (reaped == 0 && Clock::now() >= c.deadline) {
        kill(c.pid, SIGKILL);
        while ((reaped = waitpid(c.pid, &status, 0)) < 0 && errno == EINTR) {
        }
        timedOut = true;
      }
      if (reaped < 0) waitErrno = errno;
      if (reaped == 0) {
        ++k;
        continue;
      }
      if (c.out >= 0) close(c.out);
      if (c.err >= 0) close(c.err);
      const std::string file = run.fileOf(c.index);
      WorkerOutcome o =
          timedOut ? failedOutcome(file, "timed out: not analysed within " + std::to_string(run.timeoutSeconds) +
                                             " s, its worker process was killed (--file-timeout)")
          : reaped < 0 ? failedOutcome(file, std::string("analysis worker lost: ") + std::strerror(waitErrno))
                       : outcomeOf(c, status, file);
      const size_t index = c.index;
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      done(index, std::move(o));
    }
  }
  return outcomes;
}

}  // namespace coalesce::analysis
