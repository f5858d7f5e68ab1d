#include "sim/report/ResultsDir.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "models/common/InputError.hpp"
#include "sim/report/AtomicFile.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string>

namespace acmesim {

namespace fs = std::filesystem;

namespace {

constexpr const char* LOCK_FILE = ".acmesim.lock";

std::string holder_of(int fd)
{
  char buffer[32] = {};
  const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
  return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : std::string("unknown");
}

} // namespace

ResultsDirLock::ResultsDirLock(const fs::path& dir)
{
  const fs::path path = dir / LOCK_FILE;
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw std::runtime_error("cannot create " + path.string() + ": " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    const std::string holder = holder_of(fd_);
    ::close(fd_);
    fd_ = -1;
    if (error == EWOULDBLOCK)
      throw ResultsDirBusy("another acmesim process (pid " + holder +
                           ") is writing into this directory; wait for it to end or choose another --out");
    throw std::runtime_error("cannot lock " + path.string() + ": " + std::strerror(error));
  }
  // Who holds it, for the message another process would print.
  const std::string pid = std::to_string(::getpid());
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
    // The lock holds regardless; only the message would lack the pid.
  }
}

ResultsDirLock::~ResultsDirLock()
{
  if (fd_ >= 0)
    ::close(fd_); // releases the flock
}

ResultsDirLock::ResultsDirLock(ResultsDirLock&& other) noexcept : fd_(other.fd_)
{
  other.fd_ = -1;
}

void clear_results(const fs::path& dir)
{
  // summary.json first: while the others go, the directory already says it holds no whole set.
  for (auto name = result_file::ALL.rbegin(); name != result_file::ALL.rend(); ++name) {
    std::error_code ignored;
    fs::remove(dir / *name, ignored);
    fs::remove(dir / (std::string(*name) + ".partial"), ignored);
  }
}

void mark_incomplete(const fs::path& dir, const std::string& why) noexcept
{
  try {
    AtomicFile file(dir / result_file::INCOMPLETE);
    file.stream() << why << '\n';
    file.commit();
  } catch (const std::exception&) {
    // See the header: summary.json is missing whatever happens here.
  }
}

std::string run_in_progress_note()
{
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  return fmt::format("acmesim run (pid {}) started writing this run at {:%Y-%m-%d %H:%M:%S} UTC and has not "
                     "finished: it is still running, or it was killed before it could say why",
                     ::getpid(), utc);
}

void require_whole_results(const fs::path& dir)
{
  std::ifstream in(dir / result_file::INCOMPLETE);
  if (!in)
    return;
  std::string why((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!why.empty() && why.back() == '\n')
    why.pop_back();
  constexpr std::size_t QUOTED = 600; // a stalled run's list of jobs can be long
  if (why.size() > QUOTED)
    why = why.substr(0, QUOTED) + "...";
  throw InputError(Diagnostic{dir.string(), "", "",
                              fmt::format("an incomplete run's directory ({} says: {}); run it again for results",
                                          result_file::INCOMPLETE, why)});
}

void check_inputs_apart_from_results(const std::vector<std::pair<std::string, std::string>>& inputs,
                                     const fs::path& out)
{
  std::error_code ec;
  for (const auto& [key, path] : inputs)
    for (const std::string_view name : result_file::ALL) {
      const fs::path written = out / name;
      if (fs::exists(written, ec) && fs::equivalent(path, written, ec))
        throw InputError(Diagnostic{
            "--out", key, path,
            fmt::format("this run would write its {} over this file, which it reads; copy the file elsewhere or "
                        "choose another --out",
                        name)});
    }
}

} // namespace acmesim
