// The two stages of every native executable's main() and their exit codes (EXIT in src/util/errors.ts): reading the
// command line and the inputs (any error: 2, usage or input), then the run (std::invalid_argument: 2; any other error:
// 3, environment or CUDA). Each error is one line on stderr, "NAME: message", which spbench shows.
#pragma once
#include <cstdio>
#include <exception>
#include <stdexcept>

namespace spb {

// prepare() returns -1 to go on to run(), or the exit code to stop with (0 after printing a plugin's manifest);
// run() returns the exit code.
template <typename Prepare, typename Run>
int driver_main(const char* name, Prepare&& prepare, Run&& run) {
  auto fail = [name](const std::exception& e, int code) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    return code;
  };
  try {
    const int rc = prepare();
    if (rc >= 0) return rc;
  } catch (const std::exception& e) {
    return fail(e, 2);
  }
  try {
    return run();
  } catch (const std::invalid_argument& e) {
    return fail(e, 2);
  } catch (const std::exception& e) {
    return fail(e, 3);
  }
}

}  // namespace spb
