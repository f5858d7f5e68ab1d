#pragma once
// Result files are written under a temporary name and renamed into place once complete, so a
// crashed or interrupted run never leaves a file that looks whole but is not.
#include <filesystem>
#include <fstream>

namespace acmesim {

class AtomicFile {
public:
  explicit AtomicFile(std::filesystem::path target);
  ~AtomicFile(); // removes the temporary file if commit() was not reached
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ofstream& stream() { return out_; }
  // Flushes, checks for write errors and renames into place; throws std::runtime_error on failure.
  void commit();

private:
  std::filesystem::path target_;
  std::filesystem::path temporary_;
  std::ofstream out_;
  bool committed_ = false;
};

} // namespace acmesim
