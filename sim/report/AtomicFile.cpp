#include "sim/report/AtomicFile.hpp"

#include <stdexcept>
#include <system_error>

namespace acmesim {

AtomicFile::AtomicFile(std::filesystem::path target)
    : target_(std::move(target)), temporary_(target_.string() + ".partial")
{
  out_.open(temporary_, std::ios::binary | std::ios::trunc);
  if (!out_)
    throw std::runtime_error("cannot write " + temporary_.string());
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
  if (!out_)
    throw std::runtime_error("error while writing " + temporary_.string());
  out_.close();
  std::filesystem::rename(temporary_, target_);
  committed_ = true;
}

} // namespace acmesim
