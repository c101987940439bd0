// Command initexit ends before main runs, from its init, in the shapes real
// programs do: a configuration a goroutine loads, refused with log.Fatal
// (argument "fatal"), or a watchdog goroutine calling os.Exit while the
// init blocks ("exit"). Without an argument it loads the configuration and
// main prints it.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"log"
	"os"
)

var config = make(chan string)

var loaded string

func init() {
	log.SetFlags(0)
	go load()
	loaded = <-config
	switch mode() {
	case "fatal":
		log.Fatalf("initexit: bad configuration %q", loaded)
	case "exit":
		go func() {
			fmt.Println("watchdog: giving up")
			os.Exit(3)
		}()
		select {}
	}
}

func load() { config <- "v1" }

func mode() string {
	if len(os.Args) > 1 {
		return os.Args[1]
	}
	return ""
}

func main() {
	fmt.Println("configuration", loaded)
}
