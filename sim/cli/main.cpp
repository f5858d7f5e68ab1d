#include "models/common/Interrupts.hpp"
#include "sim/cli/Commands.hpp"

#include <csignal>

// GCC says it builds with AddressSanitizer by __SANITIZE_ADDRESS__, clang by __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define ACMESIM_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ACMESIM_ADDRESS_SANITIZER 1
#endif
#endif

#if defined(ACMESIM_ADDRESS_SANITIZER)
// Built with AddressSanitizer (scripts/test.sh --sanitize): the embedded Python interpreter of
// Python scheduler policies is never finalised, and CPython keeps allocations to the end by
// design, so LeakSanitizer is told to pass over what libpython allocated, and only that.
extern "C" const char* __lsan_default_suppressions()
{
  return "leak:libpython3\n";
}
// Nor is the table of what was suppressed printed at exit: stderr stays what the command says
// (a sweep reports a point's last line of stderr as its error).
extern "C" const char* __lsan_default_options()
{
  return "print_suppressions=0";
}
#endif

int main(int argc, char** argv)
{
  // Past a file-size limit a write fails with "File too large", which is reported, rather than
  // the signal killing the run with a temporary file left behind.
  std::signal(SIGXFSZ, SIG_IGN);
  // Ctrl-C and SIGTERM stop a run between two instants, leaving no results (Interrupts.hpp).
  acmesim::catch_interrupts();
  return acmesim::run_cli(argc, argv);
}
