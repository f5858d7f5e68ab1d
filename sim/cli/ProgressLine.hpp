#pragma once
// A one-line progress report on stderr for commands that run many processes (points done,
// rate, ETA), redrawn in place; silent unless stderr is a terminal, so logs and CI stay clean.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace acmesim {

class ProgressLine {
public:
  ProgressLine(std::string what, std::size_t total, bool quiet = false)
      : what_(std::move(what)), total_(total), enabled_(!quiet && isatty(STDERR_FILENO) != 0)
  {
  }

  void update(std::size_t done, std::size_t failed)
  {
    if (!enabled_)
      return;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double rate = wall > 0 ? static_cast<double>(done) / wall : 0;
    const std::string eta = rate > 0 ? fmt::format("ETA {:.0f} s", static_cast<double>(total_ - done) / rate) : "";
    std::fputs(fmt::format("\r  {}: {}/{} done, {} failed, {:.2f}/s, {}   ", what_, done, total_, failed, rate, eta)
                   .c_str(),
               stderr);
    if (done == total_)
      std::fputs("\n", stderr);
    std::fflush(stderr);
  }

private:
  std::string what_;
  std::size_t total_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

} // namespace acmesim
