#include "textflag.h"

// func getg() unsafe.Pointer
// The current g lives in thread-local storage (the layout go_tls.h uses).
TEXT ·getg(SB),NOSPLIT,$0-8
	MOVQ TLS, CX
	MOVQ 0(CX)(TLS*1), AX
	MOVQ AX, ret+0(FP)
	RET
