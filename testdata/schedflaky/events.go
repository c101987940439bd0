package schedflaky

// Processor handles events until it is stopped: the shape of an event
// loop whose stop races events already queued (a select between two
// ready channels takes either).
type Processor struct {
	events  chan int
	stop    chan struct{}
	done    chan struct{}
	handled int
}

// NewProcessor starts a processor whose queue holds n events.
func NewProcessor(n int) *Processor {
	p := &Processor{events: make(chan int, n), stop: make(chan struct{}), done: make(chan struct{})}
	go p.loop()
	return p
}

func (p *Processor) loop() {
	defer close(p.done)
	for {
		select {
		case <-p.events:
			p.handled++
		case <-p.stop:
			return
		}
	}
}

// Submit queues an event.
func (p *Processor) Submit(e int) { p.events <- e }

// Stop stops the loop and reports how many events it handled.
func (p *Processor) Stop() int {
	close(p.stop)
	<-p.done
	return p.handled
}
