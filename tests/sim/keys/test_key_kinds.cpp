// The kinds of key that are more than one value (sim/keys/NamedKeys.hpp, ConfigKey.hpp): lists of
// an enum's names, maps from the names to numbers, paths resolved against the document's directory,
// and keys read even when absent, each on a spec of its own.
#include "sim/keys/ConfigTree.hpp"
#include "sim/keys/KeyTable.hpp"
#include "sim/keys/NamedKeys.hpp"

#include <catch2/catch.hpp>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace acmesim;

namespace {

enum class Fruit : std::uint8_t { Apple, Pear, Plum };
constexpr auto enum_names(Fruit) { return names_in_order<Fruit>("apple", "pear", "plum"); }

struct Box {
  int count = 0;
};

const KeyTable<Box>& box_keys()
{
  static const KeyTable<Box> keys({number_key("count", &Box::count, integer_between(0, 100), "fruits", "how many")});
  return keys;
}

struct Basket {
  std::vector<Fruit> kinds{Fruit::Apple};
  std::map<Fruit, Box> boxes;
  std::array<double, 3> weights_kg{1, 2, 3}; // by fruit, updated
  std::array<double, 3> shares{1, 0, 0};     // by fruit, shares summing to 1
  std::string list_as_written;
  std::string list_path;
  std::string owner;
  int absent_reads = 0;
};

const KeyTable<Basket>& basket_keys()
{
  using B = Basket;
  static const KeyTable<B> keys({
      names_key<Fruit>("kinds", &B::kinds, {"fruit", "fruits"}, "expected at least one fruit", "what it holds"),
      numbers_by_name_key<Fruit>("weights_kg", &B::weights_kg, NamedNumbers::Update, {"fruit", "fruits"},
                                 {number_between(0, 10), "kg", "the weight of one fruit"}, "weights by fruit"),
      numbers_by_name_key<Fruit>("shares", &B::shares, NamedNumbers::Shares, {"fruit", "fruits"},
                                 {number_between(0, 1), NO_UNIT, "the share of one fruit"}, "the mix"),
      maps_by_name_key<Fruit>("boxes", box_keys(),
                              NamedMaps<B, Box, Fruit>{[](B& b, Fruit f) -> Box& { return b.boxes[f]; },
                                                       [](const B& b, Fruit f) -> const Box* {
                                                         const auto it = b.boxes.find(f);
                                                         return it == b.boxes.end() ? nullptr : &it->second;
                                                       }},
                              {"fruit", "fruits"}, "", "boxes by fruit"),
      path_key("list", &B::list_as_written, &B::list_path, "shopping list", "what to buy"),
      text_key("owner", &B::owner, "a name", "whose it is"),
      ConfigKey<B>(other_doc("counted", "map", MAP_KEYS, "counts its reads"),
                   [](MapReader&, const std::string&, B& spec) {
                     ++spec.absent_reads;
                     return true;
                   },
                   {})
          .read_when_absent(),
  });
  return keys;
}

struct Read {
  Basket basket;
  DiagnosticList diags;
};

Read read_basket(const std::string& text, const std::string& base_dir = ".")
{
  Read r;
  auto root = parse_config(text, {"basket.yaml", SourceLabel::Style::LineColumn}, r.diags);
  REQUIRE(root);
  ConfigChecker checker(r.diags, base_dir);
  basket_keys().read_map(checker, root->find("basket"), "basket", r.basket);
  return r;
}

std::vector<std::string> messages(const DiagnosticList& diags)
{
  std::vector<std::string> out;
  for (const auto& d : diags.items())
    out.push_back(d.key + ": " + d.message);
  return out;
}

} // namespace

TEST_CASE("a list of names takes each known name once, and refuses the rest naming the item")
{
  CHECK(read_basket("basket: {kinds: [plum, pear]}").basket.kinds == std::vector{Fruit::Plum, Fruit::Pear});
  const Read bad = read_basket("basket: {kinds: [plum, fig, plum]}");
  CHECK(messages(bad.diags) == std::vector<std::string>{
                                   "basket.kinds.1: unknown fruit; valid fruits: apple, pear, plum",
                                   "basket.kinds.2: fruit listed twice"});
  CHECK(bad.basket.kinds == std::vector{Fruit::Apple}); // unchanged
  CHECK(messages(read_basket("basket: {kinds: []}").diags) ==
        std::vector<std::string>{"basket.kinds: expected at least one fruit"});
  CHECK(basket_keys().echo(Basket{}).at("kinds") == Json::array({"apple"}));
}

TEST_CASE("numbers by name update the names given, or, as shares, replace all and sum to 1")
{
  const Read r = read_basket("basket: {weights_kg: {pear: 5}, shares: {pear: 0.25, plum: 0.75}}");
  CHECK(r.diags.empty());
  CHECK(r.basket.weights_kg == std::array<double, 3>{1, 5, 3});
  CHECK(r.basket.shares == std::array<double, 3>{0, 0.25, 0.75});
  const Json echo = basket_keys().echo(r.basket);
  CHECK(echo.at("weights_kg").dump() == R"({"apple":1.0,"pear":5.0,"plum":3.0})");
  CHECK(echo.at("shares").dump() == R"({"pear":0.25,"plum":0.75})"); // zeros left out
  const Read bad = read_basket("basket: {weights_kg: {fig: 1, pear: 20}, shares: {pear: 0.5}}");
  CHECK(messages(bad.diags) == std::vector<std::string>{
                                   "basket.weights_kg.fig: unknown fruit; valid fruits: apple, pear, plum",
                                   "basket.weights_kg.pear: expected a number between 0 and 10",
                                   "basket.shares: fruit shares must sum to 1; they sum to 0.5"});
  CHECK(bad.basket.shares == std::array<double, 3>{1, 0, 0}); // unchanged
  const std::vector<KeyDoc> docs = basket_keys().docs("basket", Basket{});
  const auto doc =
      std::find_if(docs.begin(), docs.end(), [](const KeyDoc& d) { return d.path == "basket.weights_kg.<fruit>"; });
  REQUIRE(doc != docs.end());
  CHECK(doc->unit == "kg");
}

TEST_CASE("a map from names to maps reads each named map through its table, and an empty one is no map at all")
{
  const Read r = read_basket("basket: {boxes: {pear: {count: 3}, fig: {count: 1}}}");
  CHECK(messages(r.diags) ==
        std::vector<std::string>{"basket.boxes.fig: unknown fruit; valid fruits: apple, pear, plum"});
  REQUIRE(r.basket.boxes.count(Fruit::Pear) == 1);
  CHECK(r.basket.boxes.at(Fruit::Pear).count == 3);
  CHECK(basket_keys().echo(r.basket).at("boxes").dump() == R"({"pear":{"count":3}})");
  CHECK(messages(read_basket("basket: {boxes: {plum: {count: 300}}}").diags).size() == 1);
  const Read empty = read_basket("basket:\n  boxes:\n");
  CHECK(empty.diags.empty());
  CHECK(empty.basket.boxes.empty());
}

TEST_CASE("a path resolves against the document's directory, must be a readable file, and echoes as written")
{
  const auto dir = std::filesystem::temp_directory_path() / ("acmesim-keys-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "sub");
  std::ofstream(dir / "sub" / "list.txt") << "apples\n";
  const Read r = read_basket("basket: {list: sub/list.txt, owner: ann}", dir.string());
  CHECK(r.diags.empty());
  CHECK(r.basket.list_path == (dir / "sub" / "list.txt").string());
  CHECK(basket_keys().echo(r.basket).at("list") == "sub/list.txt");
  CHECK(basket_keys().echo(r.basket).at("owner") == "ann");
  CHECK_FALSE(basket_keys().echo(Basket{}).contains("list")); // unset: left out
  CHECK_FALSE(basket_keys().echo(Basket{}).contains("owner"));
  CHECK_THAT(messages(read_basket("basket: {list: missing.txt}", dir.string()).diags).at(0),
             Catch::Contains("basket.list: shopping list not found: " + (dir / "missing.txt").string()));
  CHECK_THAT(messages(read_basket("basket: {list: sub}", dir.string()).diags).at(0),
             Catch::Contains("shopping list cannot be read"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("a key read when absent is read whether or not the map has it")
{
  CHECK(read_basket("basket: {}").basket.absent_reads == 1);
  CHECK(read_basket("basket: {counted: {}}").basket.absent_reads == 1);
}
