// The scenario framework on a spec of its own (sim/keys): a YAML tree that remembers where each
// value was written, overrides that say where they came from, and one declaration per key from
// which reading, checking, the echo and the reference lines all derive.
#include "sim/keys/ConfigTree.hpp"
#include "sim/keys/KeyTable.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

using namespace acmesim;

namespace {

enum class Shape : std::uint8_t { Round, Square };
constexpr auto enum_names(Shape) { return names_in_order<Shape>("round", "square"); }

struct ToySpec {
  int size = 3;
  double ratio = 0.5;
  Shape shape = Shape::Round;
  std::string label = "toy";
};

const KeyTable<ToySpec>& toy_keys()
{
  static const KeyTable<ToySpec> keys({
      number_key("size", &ToySpec::size, integer_between(1, 10), "items", "how many").required(),
      number_key("ratio", &ToySpec::ratio, number_between(0, 1), NO_UNIT, "a share"),
      value_key("shape", &ToySpec::shape, "its outline"),
      value_key("label", &ToySpec::label, "a name"),
  });
  return keys;
}

ConfigNode parse(const std::string& text, DiagnosticList& diags)
{
  auto root = parse_config(text, {"toy.yaml", SourceLabel::Style::LineColumn}, diags);
  REQUIRE(root);
  return *root;
}

// The `toy:` map of `text` read through the table: whether it read without a problem, and the spec.
std::pair<bool, ToySpec> read_toy(const std::string& text, DiagnosticList& diags)
{
  const ConfigNode root = parse(text, diags);
  ConfigChecker checker(diags);
  ToySpec spec;
  const bool ok = toy_keys().read_map(checker, root.find("toy"), "toy", spec);
  return {ok, spec};
}

} // namespace

TEST_CASE("a declared table reads what it declares, keeps the defaults of what is absent, and echoes it all")
{
  DiagnosticList diags;
  const auto [ok, spec] = read_toy("toy:\n  size: 7\n  shape: square\n", diags);
  CHECK(ok);
  CHECK(diags.empty());
  CHECK(spec.size == 7);
  CHECK(spec.shape == Shape::Square);
  CHECK(spec.ratio == 0.5);
  CHECK(toy_keys().echo(spec).dump() == R"({"size":7,"ratio":0.5,"shape":"square","label":"toy"})");
}

TEST_CASE("every problem of a map is reported with where it was written, its key, its value and what was expected")
{
  DiagnosticList diags;
  const auto [ok, spec] = read_toy("toy:\n  ratio: 2\n  shape: oval\n  colour: red\n", diags);
  CHECK_FALSE(ok);
  // The unknown key first (it is found before any key is read), then each key in declared order.
  REQUIRE(diags.size() == 4);
  const auto& d = diags.items();
  CHECK(d[0].where == "toy.yaml:4:3");
  CHECK(d[0].key == "toy.colour");
  CHECK_THAT(d[0].message, Catch::Contains("size, ratio, shape, label"));
  CHECK(d[1].key == "toy.size");
  CHECK(d[2].key == "toy.ratio");
  CHECK(d[2].value == "2");
  CHECK_THAT(d[2].message, Catch::Contains("between 0 and 1"));
  CHECK(d[3].key == "toy.shape");
  CHECK_THAT(d[3].message, Catch::Contains("round, square"));
  CHECK(spec.ratio == 0.5); // a bad value leaves the default
}

TEST_CASE("the reference lines of a table come from its declarations, defaults read through the echo")
{
  const std::vector<KeyDoc> docs = toy_keys().docs("toy", ToySpec{});
  REQUIRE(docs.size() == 4);
  CHECK(docs[0].path == "toy.size");
  CHECK(docs[0].default_value == "required");
  CHECK(docs[0].unit == "items");
  CHECK(docs[1].path == "toy.ratio");
  CHECK(docs[1].default_value == "0.5");
  CHECK(docs[2].choices == std::vector<std::string>{"round", "square"});
  CHECK(docs[2].default_value == "round");
}

TEST_CASE("an override replaces a value in place and marks it with the option that set it")
{
  DiagnosticList diags;
  ConfigNode root = parse("toy:\n  size: 7\n", diags);
  apply_override(root, "toy.size=9", diags);
  apply_override(root, "toy.extra.depth=1", diags);
  CHECK(diags.empty());
  CHECK(root.find("toy")->find("size")->scalar == "9");
  CHECK(root.find("toy")->find("size")->where == "--set toy.size=9");
  CHECK(root.find("toy")->find("extra")->find("depth")->scalar == "1");
  apply_override(root, "toy.size", diags); // no '='
  CHECK(diags.size() == 1);
}
