// Process isolation (worker.h): the parent forks a few workers, hands each one job (a file)
// at a time, reads each job's records back from a pipe with a deadline, and names what went
// wrong when a worker dies or overruns; a worker that died is replaced for the jobs left.
// A worker lives for many jobs: a child forked per file paid the fork and the first touch of
// every page its file's analysis used again, about 10 ms of a one-kernel file's 26 to 29 and a fifth of
// Rodinia's tree (docs/analysis-speed.md, "session 32"). One thread does it all with poll(),
// which keeps the parent single-threaded and so safe to fork from.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <optional>
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

bool readAll(int fd, void* data, size_t size) {
  auto* p = static_cast<char*>(data);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = read(fd, p + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// The worker's whole life: job after job, each index read from `jobs` (EOF: no more work),
// each job's records written to `out` behind their length, and _exit, which runs none of
// the parent's exit handlers and flushes none of its buffers (they are the parent's).
[[noreturn]] void workerMain(const IsolatedRun& run, pid_t parent, int jobs, int out, int err) {
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // a worker never outlives the run that started it
#endif
  if (getppid() != parent) _exit(4);  // the parent died before prctl took effect
  // Anything the frontend prints goes to the parent's error pipe, never into the report.
  dup2(err, STDOUT_FILENO);
  dup2(err, STDERR_FILENO);
  if (run.inChild) run.inChild();
  for (;;) {
    uint64_t i = 0;
    if (!readAll(jobs, &i, sizeof i)) _exit(0);
    testTriggers(run.fileOf(i));
    const std::string wire = outcomeToWire(run.run(i));
    const uint64_t size = wire.size();
    if (!writeAll(out, std::string(reinterpret_cast<const char*>(&size), sizeof size)) || !writeAll(out, wire))
      _exit(3);
  }
}

WorkerOutcome failedOutcome(std::string file, std::string why) {
  WorkerOutcome o;
  o.file.path = std::move(file);
  o.file.status = Status::Failed;
  o.file.error = std::move(why);
  return o;
}

// A forked worker: its ends of the job channel and of the two pipes, and the job it is on.
struct Worker {
  pid_t pid = -1;
  int jobs = -1;           // write end of the job channel; -1 once told there are no more
  int out = -1, err = -1;  // read ends; -1 once at EOF
  std::optional<size_t> job;
  std::string output, errText;  // output: bytes of the current job's frame not yet decoded
  Clock::time_point deadline = Clock::time_point::max();
};

void closeFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

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
    closeFd(fd);  // EOF or a read error: nothing more will come
    return;
  }
}

// The outcome of the job a worker was on when it ended: its status says why.
WorkerOutcome endedOutcome(const Worker& w, int status, const std::string& file) {
  if (WIFSIGNALED(status))
    return failedOutcome(file, "crashed: its worker process was killed by " + signalName(WTERMSIG(status)));
  std::string why = "the analysis worker exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) why = "the analysis worker ended before writing its records";
  if (const std::string line = lastLine(w.errText); !line.empty()) why += ": " + line;
  return failedOutcome(file, why);
}

// A complete frame of `w.output` (length, then the wire form), decoded, or nothing yet.
std::optional<WorkerOutcome> takeFrame(Worker& w, const std::string& file) {
  uint64_t size = 0;
  if (w.output.size() < sizeof size) return std::nullopt;
  std::memcpy(&size, w.output.data(), sizeof size);
  if (w.output.size() - sizeof size < size) return std::nullopt;
  WorkerOutcome o;
  const std::string error = outcomeFromWire(std::string_view(w.output).substr(sizeof size, size), o);
  w.output.erase(0, sizeof size + size);
  if (!error.empty()) return failedOutcome(file, "the analysis worker's records could not be read: " + error);
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
  std::vector<Worker> live;
  const pid_t self = getpid();
  const unsigned parallel = std::max(1u, run.parallel);
  auto done = [&](size_t i, WorkerOutcome o) {
    outcomes[i] = std::move(o);
    if (run.finished) run.finished(i);
  };
  // Each job's inputs made before any worker is forked: a worker sees the parent's memory
  // as it was at its fork.
  if (run.beforeFork)
    for (size_t i = 0; i < run.count; ++i) run.beforeFork(i);

  // A new worker, or why there is none (the job `i` it was to run then fails with it).
  auto spawn = [&](size_t i) -> bool {
    // Job i fails with the step that could not be made; `opened` is closed (errno kept).
    auto cannot = [&](const char* step, std::initializer_list<int> opened) {
      const int e = errno;
      for (int fd : opened) close(fd);
      done(i, failedOutcome(run.fileOf(i), std::string("cannot start the analysis worker: ") + step + ": " +
                                               std::strerror(e)));
      return false;
    };
    int jobs[2], out[2], err[2];
    // The job channel is a socket so that a write to a worker that has died fails with
    // EPIPE (MSG_NOSIGNAL) rather than killing this process with SIGPIPE.
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, jobs) != 0) return cannot("socketpair", {});
    if (pipe2(out, O_CLOEXEC) != 0) return cannot("pipe", {jobs[0], jobs[1]});
    if (pipe2(err, O_CLOEXEC) != 0) return cannot("pipe", {jobs[0], jobs[1], out[0], out[1]});
    const pid_t pid = fork();
    if (pid == 0) {
      close(jobs[0]);
      close(out[0]);
      close(err[0]);
      for (Worker& w : live) {  // the other workers' channels are the parent's business
        closeFd(w.jobs);
        closeFd(w.out);
        closeFd(w.err);
      }
      workerMain(run, self, jobs[1], out[1], err[1]);
    }
    if (pid < 0) return cannot("fork", {jobs[0], jobs[1], out[0], out[1], err[0], err[1]});
    close(jobs[1]);
    close(out[1]);
    close(err[1]);
    fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK);
    fcntl(err[0], F_SETFL, fcntl(err[0], F_GETFL) | O_NONBLOCK);
    Worker w;
    w.pid = pid;
    w.jobs = jobs[0];
    w.out = out[0];
    w.err = err[0];
    live.push_back(std::move(w));
    return true;
  };
  auto dispatch = [&](Worker& w, size_t i) {
    const uint64_t index = i;
    w.job = i;
    w.deadline = run.timeoutSeconds ? Clock::now() + std::chrono::seconds(run.timeoutSeconds) : Clock::time_point::max();
    // Eight bytes into an empty socket buffer: never blocks. A worker that has died is found
    // by the loop below (its pipes close), and the job fails with it.
    if (send(w.jobs, &index, sizeof index, MSG_NOSIGNAL) != static_cast<ssize_t>(sizeof index)) closeFd(w.jobs);
  };

  size_t next = 0;
  std::vector<pollfd> fds;
  auto busy = [&] { return std::any_of(live.begin(), live.end(), [](const Worker& w) { return w.job.has_value(); }); };
  while (next < run.count || busy()) {
    // Work for the idle workers, new workers while there is more work than workers; a
    // worker with nothing left to do is told so (its job channel closed) and exits.
    for (Worker& w : live)
      if (!w.job && w.jobs >= 0) {
        if (next < run.count) dispatch(w, next++);
        else closeFd(w.jobs);
      }
    while (next < run.count && live.size() < parallel) {
      const size_t i = next++;
      if (spawn(i)) dispatch(live.back(), i);
    }
    if (live.empty()) continue;

    // Wait for output, a closed pipe, or the nearest deadline (a worker that has closed
    // both pipes is about to exit: look again shortly).
    fds.clear();
    auto wake = Clock::time_point::max();
    for (const Worker& w : live) {
      if (w.out >= 0) fds.push_back({w.out, POLLIN, 0});
      if (w.err >= 0) fds.push_back({w.err, POLLIN, 0});
      wake = std::min(wake, w.out < 0 && w.err < 0 ? Clock::now() + std::chrono::milliseconds(2) : w.deadline);
    }
    int waitMs = 1000;
    if (wake != Clock::time_point::max()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(wake - Clock::now()).count();
      waitMs = static_cast<int>(std::clamp<int64_t>(left, 0, 1000));
    }
    if (poll(fds.data(), fds.size(), waitMs) < 0 && errno != EINTR) waitMs = 0;

    for (size_t k = 0; k < live.size();) {
      Worker& w = live[k];
      if (w.out >= 0) readSome(w.out, w.output, 0);
      if (w.err >= 0) readSome(w.err, w.errText, 8192);
      if (w.job)
        if (std::optional<WorkerOutcome> o = takeFrame(w, run.fileOf(*w.job))) {
          const size_t index = *w.job;
          w.job.reset();
          w.deadline = Clock::time_point::max();
          w.errText.clear();
          done(index, std::move(*o));
        }
      int status = 0, waitErrno = 0;
      pid_t reaped = 0;
      bool timedOut = false;
      if (w.out < 0 && w.err < 0) reaped = waitpid(w.pid, &status, WNOHANG);
      if (reaped == 0 && w.job && Clock::now() >= w.deadline) {
        kill(w.pid, SIGKILL);
        while ((reaped = waitpid(w.pid, &status, 0)) < 0 && errno == EINTR) {
        }
        timedOut = true;
      }
      if (reaped < 0) waitErrno = errno;
      if (reaped == 0) {
        ++k;
        continue;
      }
      closeFd(w.jobs);
      closeFd(w.out);
      closeFd(w.err);
      if (w.job) {
        const std::string file = run.fileOf(*w.job);
        WorkerOutcome o =
            timedOut ? failedOutcome(file, "timed out: not analysed within " + std::to_string(run.timeoutSeconds) +
                                               " s, its worker process was killed (--file-timeout)")
            : reaped < 0 ? failedOutcome(file, std::string("analysis worker lost: ") + std::strerror(waitErrno))
                         : endedOutcome(w, status, file);
        const size_t index = *w.job;
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
        done(index, std::move(o));
      } else {
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      }
    }
  }
  // Every job is done: the idle workers are told so and reaped.
  for (Worker& w : live) {
    closeFd(w.jobs);
    closeFd(w.out);
    closeFd(w.err);
    while (waitpid(w.pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  return outcomes;
}

}  // namespace coalesce::analysis
