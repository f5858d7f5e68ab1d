#pragma once
// The building blocks every trace reader shares (and the readers of SWF headers and failure
// lists): the error cap, line handling, file buffering. They keep the conventions of the Acme
// reader in one place.
#include "models/common/InputError.hpp"
#include "models/workload/Job.hpp"
#include "models/workload/WorkloadSpec.hpp"

#include <cstdint>
#include <fstream>
#include <functional>
#include <istream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

namespace trace_io {

// More diagnostics than this only bury the first ones; the rest are summarised in one line.
inline constexpr std::size_t MAX_SHOWN_DIAGNOSTICS = 50;

// Collects the problems of bad rows (or jobs): the first MAX_SHOWN_DIAGNOSTICS are kept, all are
// counted, and a row with several problems counts as one bad row.
class BadRowLog {
public:
  explicit BadRowLog(std::string source) : source_(std::move(source)) {}

  // A problem of the row being read; the row is then bad.
  void add(std::string where, std::string_view key, std::string_view value, std::string_view message);
  // Ends the row being read: true if it had no problem, false (and counted) if it was bad.
  bool end_row();
  std::size_t bad_rows() const { return bad_rows_; }
  // One InputError with every kept problem and a line counting the others; nothing if none.
  void throw_if_any() const;

private:
  std::string source_;
  DiagnosticList shown_;
  std::size_t problems_ = 0;
  std::size_t bad_rows_ = 0;
  bool row_bad_ = false;
};

// Where a reader reads from: the stream, its name in diagnostics, and its size in bytes (0 if
// unknown), from which a reader can tell how many jobs to make room for.
struct TraceInput {
  std::istream& in;
  const std::string& source;
  std::uintmax_t size_hint = 0;
};

// What a format's reader does with one input: reads every job into the workload, each bad row
// (or job) into the log, and throws InputError for what no policy can pass over (an empty
// input, a missing column, a syntax error, a read error).
using JobsReader = std::function<void(const TraceInput& input, Workload& workload, BadRowLog& log)>;

// What every reader does around its own part: a workload named after the source, `read_jobs`,
// then the bad rows reported (policy Error) or counted as skipped (Skip), and the result
// normalised (sorted, time 0 = first submission).
Workload read_workload(std::istream& in, const std::string& source, BadRowPolicy on_bad_row,
                       const JobsReader& read_jobs);
// The same on the file at `path`, opened as a TraceFile: the path is the source, the file size
// the hint.
Workload read_workload_file(const std::string& path, BadRowPolicy on_bad_row, const JobsReader& read_jobs);

// Makes room in `jobs`, before the first job of an input with a job per line, for as many jobs
// as `size_hint` bytes hold if every line is as long as this first one (`line_length` bytes,
// counted as at least `min_line_bytes` with its line ending): the lines of one trace have
// similar lengths. Nothing if the size is unknown (0) or room was made already.
void reserve_for_lines(std::vector<Job>& jobs, std::uintmax_t size_hint, std::size_t line_length,
                       std::size_t min_line_bytes);

// An input file opened for fast sequential reading, told by its content (FileContent.hpp): text
// is read as it is, gzip decompressed as it is read; InputError if it is a directory, cannot be
// opened, or holds another compression or binary data.
class TraceFile {
public:
  explicit TraceFile(const std::string& path);
  TraceFile(const TraceFile&) = delete;
  TraceFile& operator=(const TraceFile&) = delete;
  ~TraceFile();

  std::istream& stream() { return decompressed_ ? *decompressed_ : in_; }
  // Bytes of text, 0 if unknown (a compressed file's: its readers make room as they go).
  std::uintmax_t size() const { return size_; }

private:
  std::vector<char> buffer_; // before in_: the stream reads through it
  std::ifstream in_;
  std::unique_ptr<std::istream> decompressed_; // reads in_ through a gzip decompressor
  std::uintmax_t size_ = 0;
};

// The physical lines of an input (a trace, an SWF header, a failure list), read a block at a
// time: each line is a view into the block instead of a copy (a six-month trace has 800,000).
class LineReader {
public:
  explicit LineReader(std::istream& in) : in_(in), block_(BLOCK_BYTES) {}

  // Next physical line without its line ending ("\n" or "\r\n"); false at the end of the input
  // (or at a read error, which the stream then shows). The view is valid until the next call.
  bool next(std::string_view& line, std::size_t& line_no);

private:
  static constexpr std::size_t BLOCK_BYTES = std::size_t{1} << 20;
  // Moves the unread rest to the front and reads more after it (a larger block for a line longer
  // than the block); false if the input has nothing more.
  bool refill();

  std::istream& in_;
  std::vector<char> block_;
  std::size_t begin_ = 0; // the unread bytes are [begin_, end_)
  std::size_t end_ = 0;
};

bool is_blank(std::string_view line); // only spaces and tabs
std::string_view trim(std::string_view s);
// Splits one physical line into `fields`, which view into `line`, except quoted fields: those
// are unescaped into `scratch`, reserved to the line length so that it never reallocates and
// earlier views stay valid. Returns what is wrong with the line, or an empty view.
// Quoted fields cannot span lines: the trace has none, and physical line numbers stay exact.
std::string_view split_csv_line(std::string_view line, std::vector<std::string_view>& fields, std::string& scratch);
// The whole rest of the stream; `size_hint` (bytes, 0 if unknown) saves reallocations.
std::string read_all(std::istream& in, std::uintmax_t size_hint);
// "<line>:<column>" (both from 1) of the byte at 0-based `offset` in `text`.
std::string line_and_column(std::string_view text, std::size_t offset);
// InputError naming `source` if the stream failed for another reason than reaching its end.
void throw_if_read_error(const std::istream& in, const std::string& source);

} // namespace trace_io

} // namespace acmesim
