//===--- LaunchChevrons.h - nvcc's spaced launch chevrons ------*- C++ -*-===//
//
// nvcc accepts a kernel launch whose chevrons are split by spaces, as Visual
// Studio's formatter writes them: 'kernel << <grid, block >> > (args)'. clang
// reads '<< <' as a shift followed by a stray '<' and rejects the function,
// so none of its code is analysed. The driver reads source files through a
// file system that joins such chevrons in place ('<< <' becomes '<<< ', the
// matching '>> >' becomes '>>> '), which keeps every offset, line and column.
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

/// Base, with every file's text read through joinSpacedLaunchChevrons.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
joiningLaunchChevrons(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base);

} // namespace cudatidy

#endif
