#include "lang/interp/Syntax.h"

#include <cstring>

#include "lang/syntax/SourceFile.h"

namespace tlens::interp {
namespace {

struct KindTable {
  std::vector<NodeKind> bySymbol;
  KindTable() {
    static const std::pair<const char*, NodeKind> kNamed[] = {
        {"ERROR", NodeKind::Error},
        {"module", NodeKind::Module},
        {"block", NodeKind::Block},
        {"expression_statement", NodeKind::ExpressionStatement},
        {"return_statement", NodeKind::ReturnStatement},
        {"pass_statement", NodeKind::PassStatement},
        {"break_statement", NodeKind::BreakStatement},
        {"continue_statement", NodeKind::ContinueStatement},
        {"if_statement", NodeKind::IfStatement},
        {"elif_clause", NodeKind::ElifClause},
        {"else_clause", NodeKind::ElseClause},
        {"for_statement", NodeKind::ForStatement},
        {"while_statement", NodeKind::WhileStatement},
        {"try_statement", NodeKind::TryStatement},
        {"except_clause", NodeKind::ExceptClause},
        {"except_group_clause", NodeKind::ExceptGroupClause},
        {"finally_clause", NodeKind::FinallyClause},
        {"with_statement", NodeKind::WithStatement},
        {"with_clause", NodeKind::WithClause},
        {"with_item", NodeKind::WithItem},
        {"function_definition", NodeKind::FunctionDefinition},
        {"class_definition", NodeKind::ClassDefinition},
        {"decorated_definition", NodeKind::DecoratedDefinition},
        {"decorator", NodeKind::Decorator},
        {"raise_statement", NodeKind::RaiseStatement},
        {"assert_statement", NodeKind::AssertStatement},
        {"delete_statement", NodeKind::DeleteStatement},
        {"global_statement", NodeKind::GlobalStatement},
        {"nonlocal_statement", NodeKind::NonlocalStatement},
        {"import_statement", NodeKind::ImportStatement},
        {"import_from_statement", NodeKind::ImportFromStatement},
        {"future_import_statement", NodeKind::FutureImportStatement},
        {"print_statement", NodeKind::PrintStatement},
        {"exec_statement", NodeKind::ExecStatement},
        {"match_statement", NodeKind::MatchStatement},
        {"type_alias_statement", NodeKind::TypeAliasStatement},
        {"identifier", NodeKind::Identifier},
        {"integer", NodeKind::Integer},
        {"float", NodeKind::Float},
        {"string", NodeKind::String},
        {"concatenated_string", NodeKind::ConcatenatedString},
        {"true", NodeKind::True},
        {"false", NodeKind::False},
        {"none", NodeKind::None},
        {"ellipsis", NodeKind::Ellipsis},
        {"attribute", NodeKind::Attribute},
        {"subscript", NodeKind::Subscript},
        {"slice", NodeKind::Slice},
        {"call", NodeKind::Call},
        {"argument_list", NodeKind::ArgumentList},
        {"keyword_argument", NodeKind::KeywordArgument},
        {"list_splat", NodeKind::ListSplat},
        {"dictionary_splat", NodeKind::DictionarySplat},
        {"binary_operator", NodeKind::BinaryOperator},
        {"unary_operator", NodeKind::UnaryOperator},
        {"not_operator", NodeKind::NotOperator},
        {"boolean_operator", NodeKind::BooleanOperator},
        {"comparison_operator", NodeKind::ComparisonOperator},
        {"conditional_expression", NodeKind::ConditionalExpression},
        {"lambda", NodeKind::Lambda},
        {"list", NodeKind::List},
        {"tuple", NodeKind::Tuple},
        {"set", NodeKind::Set},
        {"dictionary", NodeKind::Dictionary},
        {"pair", NodeKind::Pair},
        {"list_comprehension", NodeKind::ListComprehension},
        {"set_comprehension", NodeKind::SetComprehension},
        {"dictionary_comprehension", NodeKind::DictionaryComprehension},
        {"generator_expression", NodeKind::GeneratorExpression},
        {"for_in_clause", NodeKind::ForInClause},
        {"if_clause", NodeKind::IfClause},
        {"parenthesized_expression", NodeKind::ParenthesizedExpression},
        {"expression_list", NodeKind::ExpressionList},
        {"pattern_list", NodeKind::PatternList},
        {"tuple_pattern", NodeKind::TuplePattern},
        {"list_pattern", NodeKind::ListPattern},
        {"list_splat_pattern", NodeKind::ListSplatPattern},
        {"dictionary_splat_pattern", NodeKind::DictionarySplatPattern},
        {"named_expression", NodeKind::NamedExpression},
        {"yield", NodeKind::Yield},
        {"await", NodeKind::Await},
        {"as_pattern", NodeKind::AsPattern},
        {"as_pattern_target", NodeKind::AsPatternTarget},
        {"assignment", NodeKind::Assignment},
        {"augmented_assignment", NodeKind::AugmentedAssignment},
        {"parenthesized_list_splat", NodeKind::ParenthesizedListSplat},
        {"interpolation", NodeKind::Interpolation},
        {"string_content", NodeKind::StringContent},
        {"string_start", NodeKind::StringStart},
        {"string_end", NodeKind::StringEnd},
        {"escape_sequence", NodeKind::EscapeSequence},
        {"escape_interpolation", NodeKind::EscapeInterpolation},
        {"format_specifier", NodeKind::FormatSpecifier},
        {"format_expression", NodeKind::FormatExpression},
        {"type_conversion", NodeKind::TypeConversion},
        {"parameters", NodeKind::Parameters},
        {"lambda_parameters", NodeKind::LambdaParameters},
        {"default_parameter", NodeKind::DefaultParameter},
        {"typed_parameter", NodeKind::TypedParameter},
        {"typed_default_parameter", NodeKind::TypedDefaultParameter},
        {"keyword_separator", NodeKind::KeywordSeparator},
        {"positional_separator", NodeKind::PositionalSeparator},
        {"dotted_name", NodeKind::DottedName},
        {"aliased_import", NodeKind::AliasedImport},
        {"relative_import", NodeKind::RelativeImport},
        {"import_prefix", NodeKind::ImportPrefix},
        {"wildcard_import", NodeKind::WildcardImport},
        {"type", NodeKind::Type},
        {"comment", NodeKind::Comment},
    };
    const TSLanguage* lang = lang::pythonLanguage();
    uint32_t count = ts_language_symbol_count(lang);
    bySymbol.assign(count + 1, NodeKind::Other);
    for (uint32_t s = 0; s < count; ++s) {
      TSSymbolType t = ts_language_symbol_type(lang, static_cast<TSSymbol>(s));
      if (t != TSSymbolTypeRegular) continue;
      const char* name = ts_language_symbol_name(lang, static_cast<TSSymbol>(s));
      if (!name) continue;
      for (const auto& [n, k] : kNamed)
        if (std::strcmp(n, name) == 0) bySymbol[s] = k;
    }
  }
};

const KindTable& kindTable() {
  static const KindTable t;
  return t;
}

TSFieldId fieldId(const char* name) {
  return ts_language_field_id_for_name(lang::pythonLanguage(), name, static_cast<uint32_t>(std::strlen(name)));
}

}  // namespace

namespace {

struct SymbolTable {
  std::vector<std::string_view> names;
  std::vector<uint8_t> named;
  SymbolTable() {
    const TSLanguage* lang = lang::pythonLanguage();
    uint32_t count = ts_language_symbol_count(lang);
    names.resize(count);
    named.resize(count);
    for (uint32_t s = 0; s < count; ++s) {
      const char* name = ts_language_symbol_name(lang, static_cast<TSSymbol>(s));
      names[s] = name ? std::string_view(name) : std::string_view();
      named[s] = ts_language_symbol_type(lang, static_cast<TSSymbol>(s)) == TSSymbolTypeRegular;
    }
  }
};

const SymbolTable& symbolTable() {
  static const SymbolTable t;
  return t;
}

}  // namespace

std::string_view symbolName(TSSymbol s) {
  const SymbolTable& t = symbolTable();
  if (s < t.names.size()) return t.names[s];
  return ts_language_symbol_name(lang::pythonLanguage(), s);  // ts_builtin_sym_error: "ERROR"
}

bool symbolIsNamed(TSSymbol s) {
  const SymbolTable& t = symbolTable();
  if (s < t.named.size()) return t.named[s];
  return true;  // ts_builtin_sym_error: ERROR nodes are named
}

NodeKind kindOf(TSNode n) {
  if (isNull(n)) return NodeKind::Other;
  return kindOfSymbol(ts_node_symbol(n));
}

NodeKind kindOfSymbol(TSSymbol s) {
  const auto& t = kindTable().bySymbol;
  if (s == static_cast<TSSymbol>(-1) || s >= t.size()) return NodeKind::Error;  // ts_builtin_sym_error
  // Only named (regular) symbols have a kind in the table, and a node is named exactly when its
  // symbol is: no ts_node_is_named call (a second decoding of the node) is needed.
  return t[s];
}

const Fields& fields() {
  static const Fields f{fieldId("left"),         fieldId("right"),        fieldId("value"),
                        fieldId("name"),         fieldId("body"),         fieldId("condition"),
                        fieldId("consequence"),  fieldId("alternative"),  fieldId("function"),
                        fieldId("arguments"),    fieldId("object"),       fieldId("attribute"),
                        fieldId("subscript"),    fieldId("operator"),     fieldId("argument"),
                        fieldId("key"),          fieldId("alias"),        fieldId("parameters"),
                        fieldId("superclasses"), fieldId("definition"),   fieldId("cause"),
                        fieldId("type"),         fieldId("module_name"),  fieldId("operators"),
                        fieldId("expression"),   fieldId("format_specifier"), fieldId("type_conversion")};
  return f;
}

NodeList<lang::NamedChildren, TSNode> namedChildren(TSNode n) { return lang::ChildCache::lookup(n).named; }

NodeList<std::span<const Child>, Child> children(TSNode n) { return lang::ChildCache::lookup(n).all; }

TSNode field(TSNode n, TSFieldId id) {
  if (isNull(n)) return n;
  return fieldIn(children(n), id);
}

TSNode firstNamedChild(TSNode n) {
  const auto& named = namedChildren(n);
  return named.empty() ? TSNode{} : named.front();
}

TSNode unparen(TSNode n) {
  while (!isNull(n) && kindOf(n) == NodeKind::ParenthesizedExpression) {
    TSNode inner = firstNamedChild(n);
    if (isNull(inner)) break;
    n = inner;
  }
  return n;
}

}  // namespace tlens::interp
