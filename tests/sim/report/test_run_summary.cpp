// summary.json is written and read back through the same field declarations: every golden summary
// of a shipped scenario reads into a RunSummary and writes back byte for byte.
#include "sim/report/JsonText.hpp"
#include "sim/report/RunSummary.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace acmesim;
namespace fs = std::filesystem;

TEST_CASE("every golden summary.json reads into a RunSummary and writes back unchanged")
{
  int count = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(ACMESIM_SOURCE_DIR) / "tests" / "golden")) {
    const fs::path path = entry.path() / "summary.json";
    if (!fs::exists(path))
      continue;
    ++count;
    INFO(path.string());
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const RunSummary summary = run_summary_from_json(Json::parse(text.str()));
    std::ostringstream written;
    write_json(written, Json(summary));
    CHECK(written.str() == text.str());
    CHECK(read_run_summary(entry.path()).makespan_s == summary.makespan_s);
  }
  CHECK(count >= 9);
}

TEST_CASE("a statistic of an empty sample is null, and reads back as empty")
{
  TimesByType times;
  const Json json = times;
  CHECK(json.dump() == R"({"all":{"count":0,"mean":null,"p50":null,"p95":null,"p99":null,"max":null},"by_type":{}})");
  const TimesByType back = json.get<TimesByType>();
  CHECK_FALSE(back.all.mean.has_value());
  CHECK(back.by_type.empty());
}

TEST_CASE("JSON documents are written indented, and bytes that are not UTF-8 become U+FFFD")
{
  const Json document{{"name", "seren"}, {"path", "runs/\xff-week"}, {"counts", {1, 2}}};
  std::ostringstream written;
  write_json(written, document);
  CHECK(written.str() == "{\n"
                         "  \"name\": \"seren\",\n"
                         "  \"path\": \"runs/\xEF\xBF\xBD-week\",\n"
                         "  \"counts\": [\n"
                         "    1,\n"
                         "    2\n"
                         "  ]\n"
                         "}\n");
}

TEST_CASE("JSON files read back as input refuse bytes that are not UTF-8 instead of changing them")
{
  std::ostringstream written;
  CHECK_THROWS_AS(write_json(written, Json{{"path", "runs/\xff-week"}}, BadUtf8::Fail), Json::type_error);
  std::ostringstream valid;
  write_json(valid, Json{{"path", "runs/week"}}, BadUtf8::Fail);
  CHECK(valid.str() == "{\n  \"path\": \"runs/week\"\n}\n");
}
