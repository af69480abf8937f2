#include "checks/PinnedCopyWaits.h"

#include "analyzer/analysis/SingleRunLoop.h"
#include "analyzer/analysis/StandardLibraryCalls.h"
#include "analyzer/analysis/StreamResolution.h"
#include "api/CudaApiTable.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace streamlint {
namespace {

enum class Flow { Clean, Waited, Blocked };

/// Whether `stmt` names `var` (a variable, or a member of any object).
bool mentions(const clang::Stmt *stmt, const clang::ValueDecl *var) {
  if (!stmt)
    return false;
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(stmt))
    if (ref->getDecl() == var)
      return true;
  if (const auto *member = llvm::dyn_cast<clang::MemberExpr>(stmt))
    if (member->getMemberDecl() == var)
      return true;
  for (const clang::Stmt *child : stmt->children())
    if (mentions(child, var))
      return true;
  return false;
}

const clang::Stmt *parentOf(clang::ASTContext &ast, const clang::Stmt *stmt) {
  clang::DynTypedNodeList parents = ast.getParents(*stmt);
  if (parents.empty())
    return nullptr;
  if (const auto *parent = parents[0].get<clang::Stmt>())
    return parent;
  if (const auto *var = parents[0].get<clang::VarDecl>()) {
    clang::DynTypedNodeList up = ast.getParents(*var);
    return up.empty() ? nullptr : up[0].get<clang::DeclStmt>();
  }
  return nullptr;
}

/// An error-check helper (`checkCudaErrors(cudaMemcpyAsync(...))` calls
/// `check(status, "#call", __FILE__, __LINE__)`): it receives only statuses
/// (enums), literals and integers, and its body reads no global variable of
/// the program, so it cannot read memory the device writes.
bool isStatusCheck(const clang::CallExpr *call, const clang::FunctionDecl *callee) {
  if (llvm::isa<clang::CXXMemberCallExpr>(call))
    return false; // the object's memory is not among the arguments
  for (const clang::Expr *arg : call->arguments()) {
    const clang::Expr *bare = arg->IgnoreParenImpCasts();
    bool literal = llvm::isa<clang::StringLiteral, clang::IntegerLiteral, clang::PredefinedExpr,
                             clang::CharacterLiteral>(bare);
    if (!literal && !bare->getType()->isEnumeralType() && !bare->getType()->isIntegerType())
      return false;
  }
  const clang::FunctionDecl *definition = nullptr;
  if (!callee->hasBody(definition) || !definition)
    return false;
  struct Globals : clang::RecursiveASTVisitor<Globals> {
    bool found = false;
    bool VisitDeclRefExpr(clang::DeclRefExpr *ref) {
      const auto *var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
      if (var && var->hasGlobalStorage() && !var->isStaticLocal() &&
          !var->getASTContext().getSourceManager().isInSystemHeader(var->getLocation()))
        found = true;
      return !found;
    }
  } globals;
  globals.TraverseStmt(definition->getBody());
  return !globals.found;
}

/// A string literal, a null pointer, or a choice between such (`c ? "a" : "b"`).
bool isLiteralText(const clang::Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (const auto *choice = llvm::dyn_cast<clang::ConditionalOperator>(e))
    return isLiteralText(choice->getTrueExpr()) && isLiteralText(choice->getFalseExpr());
  return llvm::isa<clang::StringLiteral>(e) || llvm::isa<clang::CXXNullPtrLiteralExpr>(e) ||
         llvm::isa<clang::GNUNullExpr>(e);
}

/// One copy: what runs after it, until a wait for its stream.
class Scanner {
public:
  Scanner(TranslationUnitContext &context, PointerProvenance &provenance,
          const clang::ValueDecl *buffer, const clang::FunctionDecl *function, bool local)
      : context_(context), provenance_(provenance), buffer_(buffer), function_(function),
        local_(local) {}

  /// "" when the host waits for `copy` before anything the wait matters for.
  std::string afterCopy(const clang::CallExpr *copy, const std::string &stream) {
    copy_ = copy;
    stream_ = stream;
    why_.clear();
    const clang::Stmt *current = copy;
    while (const clang::Stmt *parent = parentOf(context_.ast(), current)) {
      Flow flow = rest(parent, current);
      if (flow == Flow::Waited)
        return "";
      if (flow == Flow::Blocked)
        return why_;
      current = parent;
    }
    if (local_)
      return ""; // the function returns; nothing else can reach the buffer
    return "'" + function_->getNameAsString() + "' returns before waiting for the copy at line " +
           line(copy) + ", and other functions use '" + buffer_->getNameAsString() + "'";
  }

private:
  std::string line(const clang::Stmt *s) const {
    return std::to_string(context_.sources().getExpansionLineNumber(s->getBeginLoc()));
  }
  Flow block(const clang::Stmt *at, const std::string &what) {
    why_ = what + " at line " + line(at) + " before waiting for the copy at line " + line(copy_) +
           " (with pinned memory the copy returns before it completes)";
    return Flow::Blocked;
  }

  /// What runs in `parent` after its child `child` (which holds the copy).
  Flow rest(const clang::Stmt *parent, const clang::Stmt *child) {
    if (const auto *block = llvm::dyn_cast<clang::CompoundStmt>(parent)) {
      bool after = false;
      for (const clang::Stmt *s : block->body()) {
        if (after)
          if (Flow flow = statement(s); flow != Flow::Clean)
            return flow;
        after |= s == child;
      }
      return Flow::Clean;
    }
    if (const auto *branch = llvm::dyn_cast<clang::IfStmt>(parent))
      if (child == branch->getCond())
        return both(statement(branch->getThen()), statement(branch->getElse()));
    if (isRepeatingLoop(*parent, context_.ast())) {
      // The next iteration runs before the wait after the loop: up to the copy
      // it must not touch what the copy is writing.
      const clang::Stmt *body = nullptr;
      if (const auto *loop = llvm::dyn_cast<clang::ForStmt>(parent)) body = loop->getBody();
      if (const auto *loop = llvm::dyn_cast<clang::WhileStmt>(parent)) body = loop->getBody();
      if (const auto *loop = llvm::dyn_cast<clang::DoStmt>(parent)) body = loop->getBody();
      if (const auto *loop = llvm::dyn_cast<clang::CXXForRangeStmt>(parent)) body = loop->getBody();
      const auto *block = llvm::dyn_cast_or_null<clang::CompoundStmt>(body);
      if (!block)
        return block_(parent);
      for (const clang::Stmt *s : block->body()) {
        if (s->getSourceRange().fullyContains(copy_->getSourceRange()) || s == copy_)
          break;
        if (Flow flow = statement(s); flow != Flow::Clean)
          return flow == Flow::Waited ? Flow::Clean : flow;
      }
    }
    return Flow::Clean;
  }
  Flow block_(const clang::Stmt *at) { return block(at, "the loop repeats"); }

  static Flow both(Flow a, Flow b) {
    if (a == Flow::Blocked || b == Flow::Blocked)
      return Flow::Blocked;
    return a == Flow::Waited && b == Flow::Waited ? Flow::Waited : Flow::Clean;
  }

  Flow statement(const clang::Stmt *s) {
    if (!s || llvm::isa<clang::NullStmt>(s))
      return Flow::Clean;
    if (const auto *block = llvm::dyn_cast<clang::CompoundStmt>(s)) {
      for (const clang::Stmt *child : block->body())
        if (Flow flow = statement(child); flow != Flow::Clean)
          return flow;
      return Flow::Clean;
    }
    if (const auto *branch = llvm::dyn_cast<clang::IfStmt>(s)) {
      if (Flow flow = expression(branch->getCond()); flow != Flow::Clean)
        return flow;
      return both(statement(branch->getThen()), statement(branch->getElse()));
    }
    if (const auto *ret = llvm::dyn_cast<clang::ReturnStmt>(s)) {
      if (Flow flow = expression(ret->getRetValue()); flow != Flow::Clean)
        return flow;
      return local_ ? Flow::Waited : block(s, "the function returns");
    }
    if (const auto *decl = llvm::dyn_cast<clang::DeclStmt>(s)) {
      for (const clang::Decl *d : decl->decls())
        if (const auto *var = llvm::dyn_cast<clang::VarDecl>(d))
          if (Flow flow = expression(var->getInit()); flow != Flow::Clean)
            return flow;
      return Flow::Clean;
    }
    if (runsAtMostOnce(*s, context_.ast()))
      if (const auto *loop = llvm::dyn_cast<clang::DoStmt>(s))
        return statement(loop->getBody());
    if (isRepeatingLoop(*s, context_.ast())) {
      // A wait inside a loop may not run; anything else inside must be clean.
      for (const clang::Stmt *child : s->children())
        if (child && (llvm::isa<clang::Expr>(child) ? expression(llvm::cast<clang::Expr>(child))
                                                     : statement(child)) == Flow::Blocked)
          return Flow::Blocked;
      return Flow::Clean;
    }
    if (const auto *e = llvm::dyn_cast<clang::Expr>(s))
      return expression(e);
    return block(s, "control flow the analysis does not follow");
  }

  Flow expression(const clang::Expr *e) {
    if (!e)
      return Flow::Clean;
    e = e->IgnoreParenImpCasts();
    if (llvm::isa<clang::LambdaExpr>(e))
      return block(e, "a lambda");
    if (const auto *call = llvm::dyn_cast<clang::CallExpr>(e))
      return this->call(call);
    // The fix turns `delete[] buffer` into cudaFreeHost, which waits (as
    // free(buffer) below).
    if (const auto *release = llvm::dyn_cast<clang::CXXDeleteExpr>(e))
      if (mentions(release->getArgument(), buffer_))
        return Flow::Waited;
    if (const auto *unary = llvm::dyn_cast<clang::UnaryOperator>(e))
      if (unary->getOpcode() == clang::UO_Deref)
        if (Flow flow = dereference(unary->getSubExpr(), e); flow != Flow::Clean)
          return flow;
    if (const auto *subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(e))
      if (Flow flow = dereference(subscript->getBase(), e); flow != Flow::Clean)
        return flow;
    if (const auto *member = llvm::dyn_cast<clang::MemberExpr>(e))
      if (member->isArrow())
        if (Flow flow = dereference(member->getBase(), e); flow != Flow::Clean)
          return flow;
    if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e))
      if (ref->getDecl() == buffer_)
        return block(e, "the host uses '" + buffer_->getNameAsString() + "'");
    if (const auto *member = llvm::dyn_cast<clang::MemberExpr>(e))
      if (member->getMemberDecl() == buffer_)
        return block(e, "the host uses '" + buffer_->getNameAsString() + "'");
    for (const clang::Stmt *child : e->children())
      if (const auto *sub = llvm::dyn_cast_or_null<clang::Expr>(child))
        if (Flow flow = expression(sub); flow != Flow::Clean)
          return flow;
    return Flow::Clean;
  }

  /// Memory reached through `pointer`: fine when known pageable (device
  /// work never writes it) and not the buffer.
  Flow dereference(const clang::Expr *pointer, const clang::Expr *at) {
    if (mentions(pointer, buffer_))
      return block(at, "the host uses '" + buffer_->getNameAsString() + "'");
    if (!pointer->getType()->isPointerType())
      return Flow::Clean; // arrays by value, iterators: expression() looks inside
    if (llvm::isa<clang::CXXThisExpr>(pointer->IgnoreParenImpCasts()))
      return Flow::Clean; // the object's own members: host memory of the object
    Provenance memory = provenance_.of(pointer, at, function_);
    if (memory.kind == MemoryKind::Pageable)
      return Flow::Clean;
    return block(at, "the host reads or writes memory the device may write");
  }

  Flow call(const clang::CallExpr *call) {
    for (const clang::Expr *arg : call->arguments())
      if (!mentions(arg, buffer_))
        if (Flow flow = expression(arg); flow != Flow::Clean)
          return flow;
    if (llvm::isa<clang::CUDAKernelCallExpr>(call))
      return mentions(call, buffer_) ? block(call, "a kernel receives the buffer") : Flow::Clean;
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (callee && !callee->getIdentifier() &&
        isSelfContainedLibraryCall(*call, context_.sources()))
      return libraryCall(call, callee->getNameAsString()); // operator<<, operator-
    if (!callee || !callee->getIdentifier())
      return block(call, "a call the analysis cannot see");
    llvm::StringRef name = callee->getName();
    std::string base(api::baseName(name));
    bool usesBuffer = false;
    for (const clang::Expr *arg : call->arguments())
      usesBuffer |= mentions(arg, buffer_);
    if (name == "exit" || name == "abort" || name == "_Exit" || name == "quick_exit")
      return Flow::Waited;
    if (base == "cudaDeviceSynchronize" || base == "cudaFree" || base == "cudaFreeHost" ||
        (name == "free" && usesBuffer))
      return Flow::Waited;
    if (base == "cudaStreamSynchronize" && call->getNumArgs() == 1 &&
        streamText(call->getArg(0)) == stream_)
      return Flow::Waited;
    const api::ApiInfo *info = api::findApi(base);
    if (info && info->sync == api::SyncKind::DefaultStream && stream_ == "0" && !usesBuffer)
      return Flow::Waited; // waits for the default stream's earlier work
    if (info && info->asyncHostCopy && usesBuffer) {
      std::optional<StreamArgumentSite> site = streamArgumentOf(*call);
      if (streamText(site ? site->argument : nullptr) == stream_)
        return Flow::Clean; // ordered after the first copy on its stream
    }
    if (usesBuffer)
      return block(call, "the host passes '" + buffer_->getNameAsString() + "' to '" +
                             name.str() + "'");
    if (info || name.starts_with("cuda"))
      return Flow::Clean;
    if (name == "printf" || name == "fprintf" || name == "puts" || name == "fputs" ||
        name == "putchar" || name == "fflush")
      return Flow::Clean;
    if (isSelfContainedLibraryCall(*call, context_.sources()))
      return libraryCall(call, name);
    if (isStatusCheck(call, callee))
      return Flow::Clean;
    return block(call, "the host calls '" + name.str() + "', which could read memory the "
                                                        "device writes,");
  }

  /// A standard library function that runs no code of the program reads
  /// and writes only what it is given: each pointer must reach memory known
  /// pageable (a string literal, malloc or new, a stack array), each object
  /// only the library's own memory (reachesOnlyLibraryMemory).
  Flow libraryCall(const clang::CallExpr *call, llvm::StringRef name) {
    for (const clang::Expr *argument : argumentsWithObject(*call)) {
      if (mentions(argument, buffer_))
        return block(call, "the host passes '" + buffer_->getNameAsString() + "' to '" +
                               name.str() + "'");
      if (Flow flow = expression(argument); flow != Flow::Clean)
        return flow;
      clang::QualType type = argument->getType().getNonReferenceType();
      if (namesStandardFunction(*argument, context_.sources()))
        continue; // std::endl
      if (type->isPointerType() || type->isArrayType()) {
        if (isLiteralText(argument))
          continue;
        if (type->isPointerType() &&
            provenance_.of(argument, call, function_).kind == MemoryKind::Pageable)
          continue;
        return block(call, "the host passes memory the device may write to '" + name.str() + "'");
      }
      if (!reachesOnlyLibraryMemory(type, context_.sources()))
        return block(call, "the host passes an object that may hold memory the device "
                           "writes to '" + name.str() + "'");
    }
    return Flow::Clean;
  }

public:
  std::string streamText(const clang::Expr *argument) const {
    if (!argument || llvm::isa<clang::CXXDefaultArgExpr>(argument))
      return "0";
    StreamClassification stream = classifyStreamArgument(argument, context_.ast());
    if (stream.kind == StreamKind::Omitted || stream.kind == StreamKind::Null)
      return "0";
    if (stream.variable)
      return "var@" + std::to_string(reinterpret_cast<uintptr_t>(stream.variable));
    // The spelling, also inside a macro argument (CHECK(cudaStreamSynchronize(s[i])))
    const clang::SourceManager &sm = context_.sources();
    clang::CharSourceRange range = clang::Lexer::makeFileCharRange(
        clang::CharSourceRange::getTokenRange(argument->getSourceRange()), sm,
        context_.ast().getLangOpts());
    if (range.isInvalid())
      return "?" + std::to_string(reinterpret_cast<uintptr_t>(argument)); // matches nothing
    return clang::Lexer::getSourceText(range, sm, context_.ast().getLangOpts()).str();
  }

private:
  TranslationUnitContext &context_;
  PointerProvenance &provenance_;
  const clang::ValueDecl *buffer_;
  const clang::FunctionDecl *function_;
  bool local_;
  const clang::CallExpr *copy_ = nullptr;
  std::string stream_, why_;
};

/// The async copies with a host side in `function` that name `buffer`.
std::vector<const clang::CallExpr *> copiesOf(const clang::FunctionDecl *function,
                                              const clang::ValueDecl *buffer) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::ValueDecl *buffer;
    std::vector<const clang::CallExpr *> copies;
    bool VisitCallExpr(clang::CallExpr *call) {
      const clang::FunctionDecl *callee = call->getDirectCallee();
      const api::ApiInfo *info =
          callee && callee->getIdentifier() ? api::findApi(callee->getName()) : nullptr;
      if (info && info->asyncHostCopy && mentions(call, buffer))
        copies.push_back(call);
      return true;
    }
  } finder;
  finder.buffer = buffer;
  finder.TraverseStmt(function->getBody());
  return finder.copies;
}

} // namespace

std::string copyWaitProblem(TranslationUnitContext &context, PointerProvenance &provenance,
                            const clang::ValueDecl *buffer,
                            const std::vector<const clang::FunctionDecl *> &functions,
                            bool local) {
  for (const clang::FunctionDecl *function : functions) {
    Scanner scanner(context, provenance, buffer, function, local);
    for (const clang::CallExpr *copy : copiesOf(function, buffer)) {
      std::optional<StreamArgumentSite> site = streamArgumentOf(*copy);
      std::string why =
          scanner.afterCopy(copy, scanner.streamText(site ? site->argument : nullptr));
      if (!why.empty())
        return why;
    }
  }
  return "";
}

std::vector<const clang::FunctionDecl *> functionsUsing(TranslationUnitContext &context,
                                                        const clang::ValueDecl *var) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::ValueDecl *var;
    std::vector<const clang::FunctionDecl *> functions;
    bool VisitFunctionDecl(clang::FunctionDecl *f) {
      if (f->doesThisDeclarationHaveABody() && mentions(f->getBody(), var))
        functions.push_back(f);
      return true;
    }
  } finder;
  finder.var = var;
  finder.TraverseDecl(context.ast().getTranslationUnitDecl());
  return finder.functions;
}

const clang::VarDecl *resultHolder(TranslationUnitContext &context, const clang::CallExpr *call) {
  clang::ASTContext &ast = context.ast();
  const clang::Stmt *current = call;
  while (true) {
    clang::DynTypedNodeList parents = ast.getParents(*current);
    if (parents.empty())
      return nullptr;
    if (const auto *var = parents[0].get<clang::VarDecl>())
      return var->hasLocalStorage() && !llvm::isa<clang::ParmVarDecl>(var) ? var : nullptr;
    const auto *parent = parents[0].get<clang::Stmt>();
    if (!parent)
      return nullptr;
    if (const auto *assign = llvm::dyn_cast<clang::BinaryOperator>(parent)) {
      const auto *ref =
          assign->getOpcode() == clang::BO_Assign
              ? llvm::dyn_cast<clang::DeclRefExpr>(assign->getLHS()->IgnoreParenImpCasts())
              : nullptr;
      const auto *var = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
      return var && var->hasLocalStorage() && !llvm::isa<clang::ParmVarDecl>(var) ? var
                                                                                   : nullptr;
    }
    if (!llvm::isa<clang::CastExpr, clang::ParenExpr>(parent))
      return nullptr;
    current = parent;
  }
}

} // namespace streamlint
