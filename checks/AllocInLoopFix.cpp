#include "checks/AllocInLoopFix.h"

#include "analyzer/analysis/SingleRunLoop.h"
#include "analyzer/analysis/SourceEdits.h"
#include "checks/AllocInLoopLifetime.h"
#include "checks/AllocInLoopWaits.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

#include <cctype>
#include <tuple>

namespace streamlint {
namespace {

/// Whether `child` runs every time `parent` does (a branch condition does,
/// a branch does not).
bool runsWithParent(const clang::Stmt *child, const clang::Stmt *parent,
                    clang::ASTContext &ast) {
  if (const auto *branch = llvm::dyn_cast<clang::IfStmt>(parent))
    return child == branch->getCond() || child == branch->getInit() ||
           child == branch->getConditionVariableDeclStmt();
  if (const auto *branch = llvm::dyn_cast<clang::SwitchStmt>(parent))
    return child == branch->getCond() || child == branch->getInit();
  if (const auto *choice = llvm::dyn_cast<clang::AbstractConditionalOperator>(parent))
    return child == choice->getCond();
  if (const auto *logical = llvm::dyn_cast<clang::BinaryOperator>(parent))
    return !logical->isLogicalOp() || child == logical->getLHS();
  if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::CXXForRangeStmt>(parent))
    return false;
  if (llvm::isa<clang::DoStmt>(parent)) // do { CHECK body } while (0)
    return runsAtMostOnce(*parent, ast);
  return !llvm::isa<clang::CaseStmt, clang::DefaultStmt, clang::LabelStmt>(parent);
}

/// The statement of the loop's `{ ... }` body that holds `call`, when it
/// runs every iteration and can move as a whole: the call's own statement,
/// an error-check macro around it (`CHECK(cudaMalloc(...));`), or an `if`
/// whose condition it is. Sets `why` otherwise.
const clang::Stmt *movableStatement(clang::ASTContext &ast, const clang::CallExpr *call,
                                    const clang::Stmt *loop, std::string &why) {
  const auto *body = llvm::dyn_cast_or_null<clang::CompoundStmt>(loopBodyOf(loop));
  if (!body) {
    why = "the loop's body is not a { } block";
    return nullptr;
  }
  const clang::Stmt *current = call;
  while (const clang::Stmt *parent = parentStatement(ast, current)) {
    if (parent == body)
      break;
    if (!runsWithParent(current, parent, ast) || parent == loop) {
      why = "it does not run every iteration (it is inside a branch of the loop body)";
      return nullptr;
    }
    current = parent;
  }
  if (!current || parentStatement(ast, current) != body) {
    why = "it is not a statement of the loop's body";
    return nullptr;
  }
  bool ownStatement = current == call ||
                      (llvm::isa<clang::Expr>(current) &&
                       llvm::cast<clang::Expr>(current)->IgnoreParenImpCasts() ==
                           static_cast<const clang::Expr *>(call)) ||
                      llvm::isa<clang::CStyleCastExpr>(current); // (void)cudaMalloc
  bool macro = current->getBeginLoc().isMacroID();
  if (!ownStatement && !macro && !llvm::isa<clang::IfStmt>(current)) {
    why = llvm::isa<clang::DeclStmt, clang::BinaryOperator>(current)
              ? "its result is stored in a variable that later code may read"
              : "it is part of a larger statement";
    return nullptr;
  }
  return current;
}

/// File offsets of a statement including its ';', and of its whole line
/// when the statement is alone on it.
struct StatementText {
  clang::SourceLocation lineBegin, lineEnd; // the line incl. its newline
  std::string text;
};

std::optional<StatementText> statementText(const clang::Stmt *stmt,
                                           const clang::ASTContext &ast) {
  const clang::SourceManager &sm = ast.getSourceManager();
  clang::CharSourceRange range = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(stmt->getSourceRange()), sm,
      ast.getLangOpts());
  if (range.isInvalid())
    return std::nullopt;
  clang::SourceLocation end = range.getEnd();
  std::optional<clang::Token> next =
      clang::Lexer::findNextToken(end.getLocWithOffset(-1), sm, ast.getLangOpts());
  bool needsSemicolon = llvm::isa<clang::Expr, clang::DoStmt>(stmt);
  if (next && next->is(clang::tok::semi))
    end = next->getEndLoc(); // also `if (c) exit(1);`
  else if (needsSemicolon)
    return std::nullopt;
  auto [file, beginOffset] = sm.getDecomposedLoc(range.getBegin());
  unsigned endOffset = sm.getFileOffset(end);
  llvm::StringRef buffer = sm.getBufferData(file);
  unsigned lineBegin = beginOffset, lineEnd = endOffset;
  while (lineBegin > 0 && (buffer[lineBegin - 1] == ' ' || buffer[lineBegin - 1] == '\t'))
    --lineBegin;
  while (lineEnd < buffer.size() && (buffer[lineEnd] == ' ' || buffer[lineEnd] == '\t'))
    ++lineEnd;
  if (buffer.substr(lineEnd).starts_with("//")) { // a trailing comment moves along
    while (lineEnd < buffer.size() && buffer[lineEnd] != '\n' && buffer[lineEnd] != '\r')
      ++lineEnd;
    endOffset = lineEnd;
  }
  if (lineEnd < buffer.size() && buffer[lineEnd] == '\r')
    ++lineEnd;
  if ((lineBegin > 0 && buffer[lineBegin - 1] != '\n') ||
      lineEnd >= buffer.size() || buffer[lineEnd] != '\n')
    return std::nullopt;
  clang::SourceLocation start = sm.getLocForStartOfFile(file);
  return StatementText{start.getLocWithOffset(lineBegin), start.getLocWithOffset(lineEnd + 1),
                       buffer.slice(beginOffset, endOffset).str()};
}

/// Variables the loop writes (assignments, ++, address taken), outside `ignored`.
void writtenVariables(const clang::Stmt *stmt, const clang::Stmt *ignored,
                      llvm::SmallPtrSetImpl<const clang::Decl *> &written) {
  if (!stmt || stmt == ignored)
    return;
  const clang::Expr *target = nullptr;
  if (const auto *binary = llvm::dyn_cast<clang::BinaryOperator>(stmt))
    if (binary->isAssignmentOp())
      target = binary->getLHS();
  if (const auto *unary = llvm::dyn_cast<clang::UnaryOperator>(stmt))
    if (unary->isIncrementDecrementOp() || unary->getOpcode() == clang::UO_AddrOf)
      target = unary->getSubExpr();
  if (const auto *call = llvm::dyn_cast<clang::CXXOperatorCallExpr>(stmt))
    if (call->isAssignmentOp() || call->getOperator() == clang::OO_PlusPlus ||
        call->getOperator() == clang::OO_MinusMinus)
      target = call->getArg(0);
  if (target)
    if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(target->IgnoreParenImpCasts()))
      written.insert(ref->getDecl());
  for (const clang::Stmt *child : stmt->children())
    writtenVariables(child, ignored, written);
}

/// No calls, no variables declared in the loop or written by it.
bool loopInvariant(const clang::Stmt *expr, const clang::Stmt *loop,
                   const llvm::SmallPtrSetImpl<const clang::Decl *> &written,
                   const clang::SourceManager &sources) {
  if (!expr)
    return true;
  if (llvm::isa<clang::UnaryExprOrTypeTraitExpr>(expr)) // sizeof(x)
    return true;
  if (llvm::isa<clang::CallExpr>(expr))
    return false;
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    const clang::ValueDecl *decl = ref->getDecl();
    if (written.contains(decl))
      return false;
    if (llvm::isa<clang::VarDecl>(decl) &&
        !sources.isBeforeInTranslationUnit(decl->getLocation(), loop->getBeginLoc()))
      return false;
  }
  for (const clang::Stmt *child : expr->children())
    if (!loopInvariant(child, loop, written, sources))
      return false;
  return true;
}

/// Whether `name` is declared or used anywhere in `function` or the TU.
bool nameTaken(llvm::StringRef name, const clang::FunctionDecl *function,
               clang::ASTContext &ast) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    llvm::StringRef name;
    bool found = false;
    bool VisitNamedDecl(clang::NamedDecl *d) {
      found |= d->getIdentifier() && d->getName() == name;
      return !found;
    }
    bool VisitDeclRefExpr(clang::DeclRefExpr *r) {
      found |= r->getDecl()->getIdentifier() && r->getDecl()->getName() == name;
      return !found;
    }
  } finder;
  finder.name = name;
  finder.TraverseDecl(const_cast<clang::FunctionDecl *>(function));
  return finder.found ||
         !ast.getTranslationUnitDecl()->lookup(&ast.Idents.get(name)).empty();
}

/// The shape both fixes rewrite: the loop, its alloc and free statements.
struct Shape {
  const clang::Stmt *loop, *allocStmt, *freeStmt;
  const clang::VarDecl *buffer;
  StatementText allocText, freeText;
  std::optional<StatementText> declText; // the buffer's declaration, in the loop body
  clang::SourceLocation loopBegin, loopEnd; // file locations; loopEnd after ';' of do-while
  std::string indent;
};

bool addEdits(TranslationUnitContext &context, FixIt &fix,
              std::initializer_list<std::tuple<clang::SourceLocation, clang::SourceLocation,
                                               std::string>> edits) {
  FixEdits fixEdits(context, fix);
  for (const auto &[a, b, text] : edits)
    if (!fixEdits.add(a, b, text))
      return false;
  return true;
}

/// The declaration moved before the loop, and its line removed.
std::string movedDeclaration(TranslationUnitContext &context, const Shape &s, FixIt &fix) {
  if (!s.declText)
    return "";
  if (!FixEdits(context, fix).add(s.declText->lineBegin, s.declText->lineEnd, ""))
    return "";
  return s.declText->text + "\n" + s.indent;
}

std::optional<FixIt> hoistEdits(TranslationUnitContext &context, const Shape &s) {
  FixIt fix;
  fix.description = std::string(s.declText ? "declare and allocate '" : "allocate '") +
                    s.buffer->getNameAsString() +
                    "' once before the loop and free it after the loop";
  std::string declaration = movedDeclaration(context, s, fix);
  if (!addEdits(context, fix,
                {{s.loopBegin, s.loopBegin, declaration + s.allocText.text + "\n" + s.indent},
                 {s.allocText.lineBegin, s.allocText.lineEnd, ""},
                 {s.freeText.lineBegin, s.freeText.lineEnd, ""},
                 {s.loopEnd, s.loopEnd, "\n" + s.indent + s.freeText.text}}))
    return std::nullopt;
  return fix;
}

std::optional<FixIt> growthEdits(TranslationUnitContext &context, const Shape &s,
                                 const std::string &size, const std::string &capacity) {
  std::string in = lineIndentation(s.allocStmt->getBeginLoc(), context.sources());
  std::string step = "  ";
  std::string grown = "(size_t)(" + size + ")";
  std::string replacement = in + "if (" + grown + " > " + capacity + ") {\n" + in + step +
                            "if (" + capacity + " > 0)\n" + in + step + step +
                            s.freeText.text + "\n" + in + step + s.allocText.text + "\n" +
                            in + step + capacity + " = " + grown + ";\n" + in + "}\n";
  FixIt fix;
  std::string declaration = movedDeclaration(context, s, fix);
  fix.description = "reuse '" + s.buffer->getNameAsString() +
                    "' across iterations: allocate only when a larger size is needed "
                    "(capacity in '" + capacity + "') and free it after the loop";
  if (!addEdits(context, fix,
                {{s.loopBegin, s.loopBegin,
                  declaration + "size_t " + capacity + " = 0;\n" + s.indent},
                 {s.allocText.lineBegin, s.allocText.lineEnd, replacement},
                 {s.freeText.lineBegin, s.freeText.lineEnd, ""},
                 {s.loopEnd, s.loopEnd,
                  "\n" + s.indent + "if (" + capacity + " > 0)\n" + s.indent + step +
                      s.freeText.text}}))
    return std::nullopt;
  return fix;
}

} // namespace

const clang::VarDecl *loopBufferVariable(const clang::Expr *argument, bool addressOf) {
  if (!argument)
    return nullptr;
  const clang::Expr *bare = argument->IgnoreParenCasts();
  if (addressOf) {
    const auto *unary = llvm::dyn_cast<clang::UnaryOperator>(bare);
    if (!unary || unary->getOpcode() != clang::UO_AddrOf)
      return nullptr;
    bare = unary->getSubExpr()->IgnoreParenCasts();
  }
  const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(bare);
  return ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

LoopAllocationFix planLoopAllocationFix(TranslationUnitContext &context,
                                        const reach::TranslationUnitReach &reach,
                                        const reach::CallSite &alloc,
                                        const reach::CallSite &free) {
  clang::ASTContext &ast = context.ast();
  const clang::SourceManager &sm = ast.getSourceManager();
  LoopAllocationFix result;
  auto refuse = [&](std::string why) {
    result.refusal = std::move(why);
    return result;
  };
  Shape s;
  s.loop = alloc.loops.front();
  s.buffer = loopBufferVariable(alloc.call->getArg(0), true);
  const clang::FunctionDecl *function = alloc.caller;
  bool declaredInside = s.buffer->hasLocalStorage() && !llvm::isa<clang::ParmVarDecl>(s.buffer) &&
                        !sm.isBeforeInTranslationUnit(s.buffer->getLocation(), s.loop->getBeginLoc());
  if (!function || !function->hasBody() || !s.buffer->hasLocalStorage() ||
      llvm::isa<clang::ParmVarDecl>(s.buffer))
    return refuse("'" + s.buffer->getNameAsString() +
                  "' is not a local variable declared before the loop or in its body");
  const clang::Stmt *loopParent = parentStatement(ast, s.loop);
  if (!loopParent || !llvm::isa<clang::CompoundStmt>(loopParent))
    return refuse("the loop is not a statement of a { } block (it is the body of an if, "
                  "another loop or a label), so nothing can be placed before it");
  std::string why;
  s.allocStmt = movableStatement(ast, alloc.call, s.loop, why);
  if (!s.allocStmt)
    return refuse("the allocation cannot move: " + why);
  if (declaredInside) {
    const clang::Stmt *declaration = nullptr;
    why = declarationProblem(ast, s.buffer, s.loop, s.allocStmt, function, declaration);
    if (!why.empty())
      return refuse("'" + s.buffer->getNameAsString() +
                    "' is declared inside the loop and its declaration cannot move: " + why);
    s.declText = statementText(declaration, ast);
    if (!s.declText)
      return refuse("'" + s.buffer->getNameAsString() +
                    "' is declared inside the loop on a line shared with other code");
  }
  s.freeStmt = movableStatement(ast, free.call, s.loop, why);
  if (!s.freeStmt)
    return refuse("the free cannot move: " + why);
  if (!sm.isBeforeInTranslationUnit(s.allocStmt->getBeginLoc(), s.freeStmt->getBeginLoc()))
    return refuse("the free comes before the allocation in the loop body");
  for (const clang::Stmt *moved : {s.allocStmt, s.freeStmt})
    if (leavingJump(moved))
      return refuse("the error handling of the " +
                    std::string(moved == s.allocStmt ? "allocation" : "free") +
                    " leaves the iteration (break or continue), which it cannot do outside the loop");
  std::optional<StatementText> allocText = statementText(s.allocStmt, ast);
  std::optional<StatementText> freeText = statementText(s.freeStmt, ast);
  if (!allocText || !freeText)
    return refuse("the allocation or the free shares its line with other code");
  s.allocText = *allocText;
  s.freeText = *freeText;
  llvm::SmallPtrSet<const clang::Decl *, 8> written;
  writtenVariables(s.loop, s.allocStmt, written);
  written.erase(s.buffer); // cudaFree(&x)-style frees never write it
  if (const clang::Stmt *write = otherWrite(sm, s.buffer, s.loop, s.allocStmt))
    return refuse("'" + s.buffer->getNameAsString() + "' is also assigned in the loop (line " +
                  std::to_string(lineOf(sm, write->getBeginLoc())) + ")");
  clang::CharSourceRange loopRange = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(s.loop->getSourceRange()), sm, ast.getLangOpts());
  if (loopRange.isInvalid())
    return refuse("the loop is written by a macro");
  s.loopBegin = loopRange.getBegin();
  s.loopEnd = loopRange.getEnd();
  if (llvm::isa<clang::DoStmt>(s.loop)) { // do { } while (c);
    std::optional<clang::Token> semi =
        clang::Lexer::findNextToken(s.loopEnd.getLocWithOffset(-1), sm, ast.getLangOpts());
    if (!semi || !semi->is(clang::tok::semi))
      return refuse("the loop is written by a macro");
    s.loopEnd = semi->getEndLoc();
  }
  s.indent = lineIndentation(s.loop->getBeginLoc(), sm);

  bool invariant = true;
  for (unsigned i = 1; i < alloc.call->getNumArgs(); ++i)
    invariant &= loopInvariant(alloc.call->getArg(i), s.loop, written, sm);
  if (invariant) {
    result.fix = hoistEdits(context, s);
  } else {
    const clang::Expr *size = alloc.call->getArg(1);
    if (size->HasSideEffects(ast, /*IncludePossibleEffects=*/true))
      return refuse("the size changes every iteration and calls a function or has side "
                    "effects, so it cannot be compared with the buffer's capacity");
    std::string capacity = s.buffer->getNameAsString() + "Capacity";
    if (nameTaken(capacity, function, ast))
      return refuse("the size changes every iteration and the name '" + capacity +
                    "' for its capacity is taken");
    clang::CharSourceRange sizeRange = clang::Lexer::makeFileCharRange(
        clang::CharSourceRange::getTokenRange(size->getSourceRange()), sm, ast.getLangOpts());
    if (sizeRange.isInvalid())
      return refuse("the size is written by a macro");
    std::string sizeText =
        clang::Lexer::getSourceText(sizeRange, sm, ast.getLangOpts()).str();
    result.fix = growthEdits(context, s, sizeText, capacity);
  }
  if (!result.fix)
    return refuse("the allocation or the free is written by a macro");
  llvm::sort(result.fix->edits,
             [](const TextEdit &x, const TextEdit &y) { return x.offset < y.offset; });
  std::string problem = lifetimeProblem(context, {s.loop, s.allocStmt, s.freeStmt, s.buffer, s.loopEnd}, function);
  if (problem.empty())
    problem = implicitWaitProblem(context, reach, alloc, free);
  if (!problem.empty()) {
    result.fix->applicable = false;
    result.fix->description += "; not applied by --fix: " + problem;
  }
  return result;
}

FixIt combinedLoopFix(llvm::ArrayRef<FixIt> fixes) {
  FixIt combined;
  for (const FixIt &fix : fixes) {
    std::string description = fix.description;
    if (!combined.description.empty())
      description[0] = char(std::tolower(description[0]));
    combined.description += (combined.description.empty() ? "" : "; ") + description;
    for (const TextEdit &edit : fix.edits) {
      auto same = llvm::find_if(combined.edits, [&](const TextEdit &e) {
        return e.length == 0 && edit.length == 0 && e.offset == edit.offset && e.file == edit.file;
      });
      if (same != combined.edits.end())
        same->replacement += edit.replacement; // before or after the loop, in order
      else
        combined.edits.push_back(edit);
    }
  }
  llvm::sort(combined.edits, [](const TextEdit &a, const TextEdit &b) {
    return std::tie(a.file, a.offset, a.length) < std::tie(b.file, b.offset, b.length);
  });
  return combined;
}

} // namespace streamlint
