#include "textflag.h"

// func getg() unsafe.Pointer
// On arm64 the current g is kept in register R28, named g by the assembler.
TEXT ·getg(SB),NOSPLIT,$0-8
	MOVD g, R0
	MOVD R0, ret+0(FP)
	RET
