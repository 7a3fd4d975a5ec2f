#include <catch2/catch.hpp>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "coalesce/verify/process.h"

using namespace coalesce::verify;

TEST_CASE("process: exit status, signals and the time limit are told apart") {
  RunOptions o;
  o.argv = {"sh", "-c", "exit 3"};
  RunResult r = runProcess(o);
  CHECK(r.started);
  CHECK(r.exitCode == 3);
  CHECK_FALSE(r.succeeded());
  CHECK(r.describe() == "exited with status 3");

  o.argv = {"sh", "-c", "kill -SEGV $$"};
  r = runProcess(o);
  CHECK(r.signal == SIGSEGV);
  CHECK(r.describe().find("signal 11") != std::string::npos);

  o.argv = {"sh", "-c", "sleep 30"};
  o.timeoutSeconds = 0.3;
  r = runProcess(o);
  CHECK(r.timedOut);
  CHECK(r.seconds < 10);
  CHECK(r.describe().find("did not finish within") == 0);

  o.argv = {"true"};
  o.timeoutSeconds = 10;
  CHECK(runProcess(o).succeeded());
}

TEST_CASE("process: a missing program is reported, the environment and capture work") {
  RunOptions o;
  o.argv = {"/nonexistent/program"};
  RunResult r = runProcess(o);
  CHECK_FALSE(r.started);
  CHECK(r.describe().find("could not be started") == 0);

  const std::string file = "/tmp/coalesce_process_test.txt";
  o.argv = {"sh", "-c", "echo value=$COALESCE_TEST_VAR; echo err >&2"};
  o.extraEnv = {{"COALESCE_TEST_VAR", "42"}};
  o.captureFile = file;
  r = runProcess(o);
  REQUIRE(r.succeeded());
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK(ss.str() == "value=42\nerr\n");
  std::remove(file.c_str());
}

TEST_CASE("process: PATH lookup and loading libraries") {
  CHECK(findInPath("sh"));
  CHECK_FALSE(findInPath("surely-not-a-program-name-xyz"));
  CHECK(tryLoadLibrary("/nonexistent/libx.so").find("libx.so") != std::string::npos);
  CHECK(tryLoadLibrary("libm.so.6").empty());
}
