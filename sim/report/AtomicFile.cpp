#include "sim/report/AtomicFile.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
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

AtomicFile::AtomicFile(std::filesystem::path target) : target_(std::move(target))
{
  namespace fs = std::filesystem;
  if (target_ == "-") {
    mode_ = Mode::StandardOutput;
    return;
  }
  std::error_code ec;
  // A link is followed to the file it names, which need not exist yet: the link itself stays.
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(target_, ec)); ++hops) {
    const fs::path named = fs::read_symlink(target_, ec);
    target_ = named.is_absolute() ? named : target_.parent_path() / named;
  }
  const fs::file_status status = fs::status(target_, ec);
  if (fs::is_directory(status))
    throw WriteError("cannot write " + target_.string() + ": it is a directory");
  errno = 0;
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    mode_ = Mode::InPlace; // a device, pipe or socket: never renamed over
    out_.open(target_, std::ios::binary);
    if (!out_)
      throw WriteError("cannot write " + target_.string() + (errno ? std::string(": ") + std::strerror(errno) : ""));
    return;
  }
  temporary_ = target_.string() + ".partial";
  out_.open(temporary_, std::ios::binary | std::ios::trunc);
  if (!out_)
    throw WriteError("cannot write " + temporary_.string() + (errno ? std::string(": ") + std::strerror(errno) : ""));
}

AtomicFile::~AtomicFile()
{
  if (!committed_ && mode_ == Mode::Replace) {
    out_.close();
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
  }
}

std::ostream& AtomicFile::stream() { return mode_ == Mode::StandardOutput ? std::cout : out_; }

void AtomicFile::commit()
{
  if (mode_ == Mode::StandardOutput) {
    if (!std::cout.flush())
      throw WriteError("cannot write to standard output");
    committed_ = true;
    return;
  }
  out_.flush();
  if (out_)
    out_.close();
  const std::filesystem::path& written = mode_ == Mode::Replace ? temporary_ : target_;
  if (!out_)
    throw WriteError("cannot write " + written.string() + ": " + write_failure(written));
  if (mode_ == Mode::Replace) {
    std::error_code ec;
    std::filesystem::rename(temporary_, target_, ec);
    if (ec)
      throw WriteError("cannot rename " + temporary_.string() + " to " + target_.filename().string() + ": " +
                       ec.message());
  }
  committed_ = true;
}

} // namespace acmesim
