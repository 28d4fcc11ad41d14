/*
 * TEST-ONLY WORKAROUND for CI under Wine (scripts/ci/wine.sh), never shipped: Debian's Wine 8
 * has no `ProcessPrng` in bcryptprimitives.dll, which every Windows binary from Rust 1.78 on
 * imports for random numbers, so such a binary does not start under it. This stand-in
 * bcryptprimitives.dll exports `ProcessPrng` on top of `SystemFunction036` (RtlGenRandom,
 * advapi32), which Wine has. wine.sh builds it with mingw-w64 into the cached Wine prefix and
 * selects it with WINEDLLOVERRIDES=bcryptprimitives=n,b. Real Windows (8.1 and later) has
 * ProcessPrng itself.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

/* Fills `data` with `length` random bytes; always succeeds on real Windows. */
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x7fffffffUL ? 0x7fffffffUL : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
