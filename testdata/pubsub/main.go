// Command pubsub is a pub/sub broker in the shape of the usual examples:
// one goroutine owns the subscriptions (a map from topic to subscriber
// channels) and serves subscribe, unsubscribe and publish requests in a
// for { select { ... } } loop until it is stopped; each subscriber counts
// what it receives. Requests come one at a time, each answered before the
// next is sent, so every run does the same: two unperturbed runs take the
// same paths (e2e TestSamePathsShapes).
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"sync"
)

type sub struct {
	topic string
	ch    chan string
}

type pub struct {
	topic, msg string
	done       chan int // how many subscribers got it
}

type broker struct {
	subCh, unsubCh chan sub
	pubCh          chan pub
	stop, done     chan struct{}
	subs           map[string][]chan string
}

func (b *broker) run() {
	defer close(b.done)
	for {
		select {
		case s := <-b.subCh:
			b.subs[s.topic] = append(b.subs[s.topic], s.ch)
		case s := <-b.unsubCh:
			list := b.subs[s.topic]
			for i, ch := range list {
				if ch == s.ch {
					b.subs[s.topic] = append(list[:i:i], list[i+1:]...)
					close(ch)
					break
				}
			}
		case p := <-b.pubCh:
			n := 0
			for _, ch := range b.subs[p.topic] {
				ch <- p.msg
				n++
			}
			p.done <- n
		case <-b.stop:
			return
		}
	}
}

func subscriber(ch <-chan string, got *int, wg *sync.WaitGroup) {
	defer wg.Done()
	for range ch {
		*got++
	}
}

func main() {
	b := &broker{subCh: make(chan sub), unsubCh: make(chan sub), pubCh: make(chan pub), stop: make(chan struct{}), done: make(chan struct{}), subs: map[string][]chan string{}}
	go b.run()
	topics := []string{"news", "sport", "news"}
	subs := make([]sub, len(topics))
	got := make([]int, len(topics))
	var wg sync.WaitGroup
	for i, t := range topics {
		subs[i] = sub{t, make(chan string, 8)}
		wg.Add(1)
		go subscriber(subs[i].ch, &got[i], &wg)
		b.subCh <- subs[i]
	}
	done := make(chan int)
	delivered := 0
	for i := range 6 {
		b.pubCh <- pub{topics[i%2], fmt.Sprint("msg ", i), done}
		delivered += <-done
	}
	for _, s := range subs {
		b.unsubCh <- s
	}
	close(b.stop)
	<-b.done
	wg.Wait()
	fmt.Println("delivered", delivered, "got", got)
}
