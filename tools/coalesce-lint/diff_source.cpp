// Where diff-aware runs get their diff (docs/ci.md): a file of unified diff, or git.
#include "diff_source.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

extern char** environ;

namespace coalesce::cli {

namespace {

std::string lastLine(const std::string& text) {
  const size_t end = text.find_last_not_of("\r\n \t");
  if (end == std::string::npos) return {};
  const size_t start = text.find_last_of('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

}  // namespace

CommandOutput runCapturing(const std::vector<std::string>& argv) {
  CommandOutput result;
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    result.error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  if (pipe2(err, O_CLOEXEC) != 0) {
    result.error = std::string("pipe: ") + std::strerror(errno);
    close(out[0]);
    close(out[1]);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  close(err[1]);
  if (rc != 0) {
    close(out[0]);
    close(err[0]);
    result.error = argv[0] + ": " + std::strerror(rc);
    return result;
  }
  // Both pipes read together, so a child filling one never waits on the other.
  std::string errText;
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  std::string* into[2] = {&result.output, &errText};
  int open = 2;
  while (open > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int k = 0; k < 2; ++k) {
      if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[65536];
      const ssize_t n = read(fds[k].fd, buffer, sizeof buffer);
      if (n > 0) {
        into[k]->append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[k].fd);
        fds[k].fd = -1;
        --open;
      }
    }
  }
  for (const pollfd& f : fds)
    if (f.fd >= 0) close(f.fd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.started = true;
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (result.exitCode != 0) {
    result.error = lastLine(errText);
    if (result.error.empty()) result.error = "exited with status " + std::to_string(result.exitCode);
  }
  return result;
}

std::optional<report::ChangedLines> loadChangedLines(const LintOptions& options, std::string& error) {
  std::error_code ec;
  const std::string cwd = std::filesystem::current_path(ec).string();
  std::string text, root = cwd, source;
  if (!options.changedLinesFile.empty()) {
    source = options.changedLinesFile;
    if (source == "-") {
      text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
      source = "<stdin>";
    } else {
      std::ifstream in(source, std::ios::binary);
      std::ostringstream all;
      if (!in || !(all << in.rdbuf())) {
        error = "--changed-lines " + source + ": cannot read the diff";
        return std::nullopt;
      }
      text = all.str();
    }
  } else {
    if (options.diffBase.empty() || options.diffBase.front() == '-') {
      error = "--diff-base '" + options.diffBase + "': expected a git revision";
      return std::nullopt;
    }
    // git names the files relative to the top of the work tree, whatever folder it runs in.
    const CommandOutput top = runCapturing({"git", "rev-parse", "--show-toplevel"});
    if (!top.started || top.exitCode != 0) {
      error = "--diff-base " + options.diffBase + ": not inside a git work tree (git rev-parse: " + top.error + ")";
      return std::nullopt;
    }
    root = top.output.substr(0, top.output.find_last_not_of("\r\n") + 1);
    // The prefixes are spelled out so that the user's diff settings (noprefix,
    // mnemonicPrefix, external diff tools, colour) cannot change what is read.
    const CommandOutput diff = runCapturing({"git", "diff", "-U0", "--no-color", "--no-ext-diff", "--no-renames",
                                             "--src-prefix=a/", "--dst-prefix=b/", options.diffBase, "--"});
    if (!diff.started || diff.exitCode != 0) {
      error = "--diff-base " + options.diffBase + ": git diff failed: " + diff.error;
      return std::nullopt;
    }
    text = diff.output;
    source = "git diff " + options.diffBase;
  }
  auto parsed = report::parseUnifiedDiff(text, root, source);
  if (!parsed) {
    error = parsed.error().message;
    return std::nullopt;
  }
  return std::move(*parsed);
}

}  // namespace coalesce::cli
