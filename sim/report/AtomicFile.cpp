#include "sim/report/AtomicFile.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace acmesim {

namespace {

// Why writing to `path` fails: the stream that failed keeps no reason, so one more byte is
// written to it directly and the system's answer read (no space left, file too large, ...).
std::string write_failure(const std::filesystem::path& path)
{
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0)
    return std::strerror(errno);
  const bool failed = ::write(fd, "\n", 1) < 0;
  const int error = errno;
  ::close(fd);
  return failed ? std::strerror(error) : "the write failed";
}

} // namespace

AtomicFile::AtomicFile(std::filesystem::path target)
    : target_(std::move(target)), temporary_(target_.string() + ".partial")
{
  errno = 0;
  out_.open(temporary_, std::ios::binary | std::ios::trunc);
  if (!out_)
    throw WriteError("cannot write " + temporary_.string() + (errno ? std::string(": ") + std::strerror(errno) : ""));
}

AtomicFile::~AtomicFile()
{
  if (!committed_) {
    out_.close();
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
  }
}

void AtomicFile::commit()
{
  out_.flush();
  if (out_)
    out_.close();
  if (!out_)
    throw WriteError("cannot write " + temporary_.string() + ": " + write_failure(temporary_));
  std::error_code ec;
  std::filesystem::rename(temporary_, target_, ec);
  if (ec)
    throw WriteError("cannot rename " + temporary_.string() + " to " + target_.filename().string() + ": " +
                     ec.message());
  committed_ = true;
}

} // namespace acmesim
