#pragma once
// A comma-separated table with a header row, read for the files acmesim ships or is given as
// small tables (published distributions, measured collectives). They hold no quoted fields, so a
// plain split is exact; a row with the wrong number of cells is reported, not guessed at. Every
// problem goes to a DiagnosticList with the file, line, column and value.
#include "models/common/InputError.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

class CsvTable {
public:
  struct Row {
    std::size_t line = 0;
    std::vector<std::string_view> cells;
  };

  CsvTable(std::string file, std::string_view text, DiagnosticList& diagnostics)
      : file_(std::move(file)), diagnostics_(diagnostics)
  {
    std::size_t line_no = 0;
    bool have_header = false;
    while (!text.empty()) {
      const std::size_t end = text.find('\n');
      std::string_view line = text.substr(0, end);
      text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
      ++line_no;
      if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
      if (line.find_first_not_of(" \t") == std::string_view::npos)
        continue;
      auto cells = split(line);
      if (!have_header) {
        header_.assign(cells.begin(), cells.end());
        have_header = true;
      } else if (cells.size() != header_.size()) {
        error(line_no, "", std::string(line),
              "expected " + std::to_string(header_.size()) + " cells, found " + std::to_string(cells.size()));
      } else {
        rows_.push_back({line_no, std::move(cells)});
      }
    }
    if (!have_header)
      error(0, "", "", "the file is empty");
  }

  const std::vector<Row>& rows() const { return rows_; }
  const std::vector<std::string>& header() const { return header_; }

  // Index of a required column; reported (and nullopt) if the header lacks it.
  std::optional<std::size_t> column(std::string_view name)
  {
    const auto it = std::find(header_.begin(), header_.end(), name);
    if (it != header_.end())
      return static_cast<std::size_t>(it - header_.begin());
    if (!header_.empty())
      error(1, std::string(name), "", "missing column");
    return std::nullopt;
  }

  std::optional<double> number(const Row& row, std::size_t col)
  {
    const std::string_view cell = row.cells[col];
    double v = 0;
    const auto [ptr, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
    if (ec != std::errc{} || ptr != cell.data() + cell.size() || cell.empty()) {
      error(row.line, header_[col], std::string(cell), "expected a number");
      return std::nullopt;
    }
    return v;
  }

  // Which of two words the cell is (0: `first`, 1: `second`); reported (and nullopt) if neither.
  std::optional<std::size_t> one_of(const Row& row, std::size_t col, std::string_view first, std::string_view second)
  {
    const std::string_view cell = row.cells[col];
    if (cell == first || cell == second)
      return cell == first ? 0 : 1;
    error(row.line, header_[col], std::string(cell), "expected " + std::string(first) + " or " + std::string(second));
    return std::nullopt;
  }

  void error(std::size_t line, std::string key, std::string value, std::string message)
  {
    diagnostics_.add(file_ + (line ? ":" + std::to_string(line) : ""), std::move(key), std::move(value),
                     std::move(message));
  }

private:
  static std::vector<std::string_view> split(std::string_view line)
  {
    std::vector<std::string_view> cells;
    while (true) {
      const std::size_t comma = line.find(',');
      cells.push_back(line.substr(0, comma));
      if (comma == std::string_view::npos)
        return cells;
      line.remove_prefix(comma + 1);
    }
  }

  std::string file_;
  DiagnosticList& diagnostics_;
  std::vector<std::string> header_;
  std::vector<Row> rows_;
};

// Every published file is read the same way: the table, then its named columns (each missing
// one reported; then no row is read), then `each_row(table, row, columns)` for every row, with
// the columns' indexes in the order of `names`.
template <std::size_t N, class EachRow>
void for_each_row(std::string file, std::string_view text, DiagnosticList& diags, const char* const (&names)[N],
                  EachRow each_row)
{
  CsvTable table(std::move(file), text, diags);
  std::array<std::size_t, N> columns{};
  bool all_found = true;
  for (std::size_t i = 0; i < N; ++i) {
    const auto c = table.column(names[i]);
    all_found = all_found && c.has_value();
    columns[i] = c.value_or(0);
  }
  if (!all_found)
    return;
  for (const auto& row : table.rows())
    each_row(table, row, columns);
}

} // namespace acmesim
