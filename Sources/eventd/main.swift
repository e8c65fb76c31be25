print("eventd: not yet")
