//===--- LaunchChevrons.h - nvcc's spaced launch chevrons ------*- C++ -*-===//
//
// nvcc accepts a kernel launch whose chevrons are split by spaces, as Visual
// Studio's formatter writes them: 'kernel << <grid, block >> > (args)'. clang
// reads '<< <' as a shift followed by a stray '<' and rejects the function,
// so none of its code is analysed. The driver reads source files through a
// file system that joins such chevrons in place ('<< <' becomes '<<< ', the
// matching '>> >' becomes '>>> '), which keeps every offset, line and column.
// It escapes a PTX special register written with one '%' in an asm template
// ('%globaltimer', '%laneid') the same way.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_DRIVER_LAUNCHCHEVRONS_H
#define CUDA_TIDY_DRIVER_LAUNCHCHEVRONS_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <optional>
#include <string>

namespace cudatidy {

/// Text with every launch's spaced chevrons joined, or nullopt when it has
/// none. Comments, string and character literals, and 'operator<< <T>'
/// (explicit template arguments of a shift operator) are left alone; the
/// result has the length of Text, with every newline where it was.
std::optional<std::string> joinSpacedLaunchChevrons(llvm::StringRef Text);

/// Text with every PTX special register written with one '%' in an
/// extended asm statement's template escaped, or nullopt when it has none.
/// nvcc passes 'asm("mov.u64 %0, %globaltimer;" : "=l"(t))' through; clang
/// rejects the '%g' escape, and the device function with it. Within the
/// template, ' %name' becomes '%%name' (the space before it is eaten), or
/// '%name' becomes '%%ame' where no space precedes it; the analyses never
/// read a template's text, only that the statement is assembly. Operands
/// ('%0', '%[x]'), modifiers ('%c0'), '%%' and basic asm (no ':', where
/// clang reads '%' as written) are left alone; the result has Text's
/// length, with every newline where it was.
std::optional<std::string> escapeAsmSpecialRegisters(llvm::StringRef Text);

/// Text with what nvcc accepts and clang rejects rewritten in place (spaced
/// launch chevrons, then bare '%' in asm templates), or nullopt when there
/// is nothing to rewrite.
std::optional<std::string> nvccAcceptedText(llvm::StringRef Text);

/// Base, with every file's text read through nvccAcceptedText.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
joiningLaunchChevrons(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base);

} // namespace cudatidy

#endif
