package main

import (
	"errors"
	"fmt"
	str "strings"
)

// Sends whose value's type is not the channel's element type: Send's type
// argument must come from the channel alone (powser2.go sends *rat on a
// chan of an interface).

type item interface{ pr() string }

type rat struct{ num, den int64 }

func (r *rat) pr() string { return fmt.Sprintf("%d/%d", r.num, r.den) }

type named chan item

func main() {
	ch := make(chan item, 4)
	ch <- &rat{1, 2}
	var n named = make(named, 1)
	n <- &rat{3, 4}
	errs := make(chan error, 2)
	errs <- errors.New("boom")
	errs <- nil
	bs := make(chan fmt.Stringer, 1)
	bs <- &str.Builder{}
	anys := make(chan any, 2)
	anys <- 7
	anys <- str.ToUpper("x")
	fmt.Println((<-ch).pr(), (<-n).pr(), <-errs, <-errs, (<-bs).String() == "", <-anys, <-anys)
}
